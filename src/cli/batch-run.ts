import { runBatch, type BatchRunResult } from '../app/batch/run-batch.ts'
import type { BatchFigures } from '../core/batch/progress.ts'
import { refuseJuryBatch } from '../core/batch/jury.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { Spec } from '../core/types.ts'
import type { EngineKind } from '../core/engine-kinds.ts'
import type { RowSource } from '../app/plan.ts'
import { UsageError } from '../errors.ts'
import { plural } from '../format.ts'
import type { CliIo } from './io.ts'
import { usd } from './text.ts'
import type { Session } from './shared.ts'

/** The engines' names as a refusal says them. */
const ENGINE_NAMES: Readonly<Record<EngineKind, string>> = {
  systemone: 'System One',
  simulated: 'simulated',
  openai: 'openai',
  anthropic: 'Anthropic',
}

/** `judge run --batch [--no-wait]`: the run through the engine's batch API (app/batch/run-batch.ts). */
export async function runThroughBatch(
  session: Session,
  io: CliIo,
  specs: readonly Spec[],
  source: RowSource,
  wait: boolean,
): Promise<BatchRunResult> {
  // A jury is refused first: no engine's batch API could ask it.
  refuseJuryBatch(withDependencies(session.project, specs), 'run')
  const kind = session.config.engine.kind
  if (!session.runtime.engine?.batch)
    throw new UsageError(`the ${ENGINE_NAMES[kind]} engine has no batch API; run without --batch`)
  return runBatch(session.runtime, {
    project: session.project,
    specs,
    source,
    cap: session.config.maxCost,
    price: session.config.engine.batchPricePerMtok,
    wait,
    pollMs: session.config.batchPollMs,
    signal: io.signal,
    onPoll: (figures) => io.stderr.write(`judge run: ${progressLine(figures)}\n`),
  })
}

/** One poll's figures: "batches: 1 of 2 ended; 40 of 120 requests done, 2 failed". */
export function progressLine(f: BatchFigures): string {
  return (
    `batches: ${f.ended} of ${f.batches} ended; ` +
    `${f.completed} of ${plural(f.total, 'request')} done, ${f.failed} failed`
  )
}

/** What a bulk run that did not wait submitted, and how to collect it. */
export function submittedText(result: BatchRunResult): string {
  const lines = result.batches.map(
    (b) =>
      `${b.judgment}: batch ${b.batchId} (${plural(b.total, 'request')}, ` + `estimate ${usd(b.estimate)}); ${b.state}`,
  )
  return `${lines.join('\n')}\nsubmitted; run the same command again to collect the answers\n`
}

/** What a bulk run left unanswered, for standard error; '' when nothing. */
export function unansweredText(result: BatchRunResult): string {
  if (result.failed === 0) return ''
  return (
    `judge run: ${plural(result.failed, 'item')} of the batches got no answer (${result.failures}); ` +
    'they stay unanswered: run again (with or without --batch) to ask them\n'
  )
}
