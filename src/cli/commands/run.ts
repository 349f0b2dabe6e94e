import { resolve } from 'node:path'
import { openAnswersWriter, type AnswersWriter } from '../../adapters/files/answers-out.ts'
import { driftOfSpec } from '../../app/runs.ts'
import { runRows } from '../../app/run.ts'
import { findJudgment } from '../../core/spec/project.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import type { RunRecord } from '../../core/types.ts'
import type { RuntimeOptions } from '../../runtime.ts'
import { COMMON_DOCS, COMMON_OPTIONS, DATA_DOCS, helpText, onePath, parseCommand, positiveInt } from '../args.ts'
import { mix, plural, usd } from '../text.ts'
import type { CliIo } from '../io.ts'
import { createProgress } from '../progress.ts'
import { dataSourceOf, withSession, type Session } from '../shared.ts'

const OPTIONS = { ...COMMON_OPTIONS, data: { type: 'string' }, delimiter: { type: 'string' }, concurrency: { type: 'string' }, out: { type: 'string' } } as const

/** `judge run`: judges every row of a data file, store first. */
export const HELP = helpText(
  'judge run <spec-or-folder> [--data FILE] [--delimiter C] [--concurrency N] [--out FILE] [--node NAME] [--json]',
  'Judges every row of the data file, asking the engine only what the store lacks, each distinct\nstate once. Records a run per judgment. Nothing is asked when the estimate is above\nJUDGE_MAX_COST (default $1.00): the plan is printed and the exit status is 2.',
  [
    ...DATA_DOCS,
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    { flag: '--out FILE', text: 'write every row with its answers (.csv, .tsv or .jsonl)' },
    ...COMMON_DOCS,
  ],
)

/** Runs `judge run`; returns the exit status: 0 complete, 1 a failed run, 2 refused before asking. */
export async function runCommand(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number> {
  const { values, positionals } = parseCommand('run', argv, OPTIONS)
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  return withSession(io, onePath('run', positionals), options, async (session) => {
    const specs = selectJudgments(session.project, values.node, 'all')
    // Opened once the plan is within the cap, so that a refused run writes nothing.
    let writer: AnswersWriter | null = null
    let progress = createProgress(io.stderr, 0, 'judging')
    let done = 0
    const runs = await runRows(session.runtime, {
      project: session.project, specs, source: dataSourceOf(io, values, specs),
      cap: session.config.maxCost, concurrency, signal: io.signal,
      onPlan(plans) {
        if (values.out) writer = openAnswersWriter(resolve(io.cwd, values.out), specs)
        progress = createProgress(io.stderr, plans[0]?.rows ?? 0, 'judging')
      },
      onRow(seq, sourced, results) {
        writer?.write(seq, sourced.row, results)
        progress.tick(++done)
      },
    }).finally(() => progress.end())
    await (writer as AnswersWriter | null)?.close()
    io.stdout.write(values.json ? JSON.stringify(runs, null, 2) + '\n' : summary(session, runs))
    return runs.some((r) => r.status !== 'complete') ? 1 : 0
  })
}

function summary(session: Session, runs: readonly RunRecord[]): string {
  const lines: string[] = []
  for (const run of runs) {
    lines.push(`${run.judgment}: ${plural(run.rows, 'row')}, ${run.cached} answers cached, ${run.asked} asked in ${plural(run.requests, 'request')}, cost ${usd(run.cost)}; ${run.status} (run ${run.run_id})`)
    const spec = findJudgment(session.project, run.judgment)
    for (const [question, entries] of Object.entries(driftOfSpec(session.runtime, session.project, spec))) {
      const last = entries.at(-1)
      if (!last || last.run_id !== run.run_id) continue
      const change = last.change === null ? 'first run' : `change ${last.change.toFixed(3)} since the last run${last.alert ? ' (drift alert)' : ''}`
      lines.push(`  ${question}: ${mix(last.shares)}; ${change}`)
    }
  }
  return lines.join('\n') + '\n'
}
