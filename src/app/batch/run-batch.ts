import { setTimeout as delay } from 'node:timers/promises'
import { createItemGatherer } from '../../core/batch/items.ts'
import { createLandedCounter } from '../../core/batch/count.ts'
import { refuseJuryBatch } from '../../core/batch/jury.ts'
import { failureText, unansweredMessage } from '../../core/batch/land.ts'
import type { BatchFigures } from '../../core/batch/progress.ts'
import { modelFor, timestamp } from '../../core/judge/deps.ts'
import { newRunId, type RowsOutcome } from '../../core/judge/judge-rows.ts'
import { createLedger, type Ledger } from '../../core/judge/ledger.ts'
import { withDependencies } from '../../core/judge/select.ts'
import type { Project, RunRecord, Spec } from '../../core/types.ts'
import type { BatchRecord } from '../../ports/batch-store.ts'
import type { BatchLane, BatchOutcome } from '../../ports/engine.ts'
import { UsageError } from '../../errors.ts'
import type { App, DepsWith } from '../app.ts'
import type { Store } from '../../ports/store.ts'
import { checkPlans, planSource, rowsOf, type RowSource } from '../plan.ts'
import { recordRuns, sourceProvenance } from '../record-runs.ts'
import { createItemsOf, pendingBatches, pendingQuestions } from './pending.ts'
import { createIntentRecorder, ensureSubmitted, GATHERED_ITEMS, type Submission } from './submit.ts'
import { waitForBatches } from './wait.ts'
import { landBatch } from './land.ts'

/** A run through the bulk lane: its rows, cap and price, and whether it waits for its batches. */
export interface BatchRunInput {
  readonly project: Project
  readonly specs: readonly Spec[]
  readonly source: RowSource
  /** Cap in USD per judgment, against the estimate at the batch price. */
  readonly cap: number
  /** USD per million input tokens through the bulk lane (ENGINE_BATCH_PRICE_PER_MTOK). */
  readonly price: number
  /** False: submit, record and return (`--no-wait`). */
  readonly wait: boolean
  /** The first wait between polls in ms (JUDGE_BATCH_POLL_MS). */
  readonly pollMs: number
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  readonly signal?: AbortSignal
  /** Called after each poll with the provider's counts over every batch. */
  readonly onPoll?: (figures: BatchFigures) => void
}

/** What a bulk run did: its runs (none when it did not wait), its batches, and what got no answer. */
export interface BatchRunResult {
  readonly runs: RunRecord[]
  /** The batches it submitted or collected, as recorded. */
  readonly batches: BatchRecord[]
  /** Questions that got no answer, by reason ("3 expired, 1 failed: ..."); '' when none. */
  readonly failures: string
  readonly failed: number
  /** Rows left without every answer, for a later run to ask. */
  readonly unanswered: number
}

/**
 * `run --batch`: plans the rows at the batch price (refusing above the cap), collects the batches an
 * earlier run left pending, submits the questions the store lacks and no pending batch holds (each
 * batch recorded before its upload, and each step after it is done), then, unless told not to wait,
 * polls until every batch ends, stores their answers and records a run per judgment.
 */
export async function runBatch(app: App, input: BatchRunInput): Promise<BatchRunResult> {
  refuseJuryBatch(withDependencies(input.project, input.specs), 'run')
  const deps = app.depsFor(input.project)
  const lane = deps.engine?.batch
  if (!deps.engine || !lane) throw new UsageError('the engine has no batch API; run without --batch')
  const { plans } = await planSource(app, input.project, input.specs, input.source, input.price)
  checkPlans(deps, plans, input.cap)
  const specs = withDependencies(input.project, input.specs)
  const started = app.now()
  const now = () => timestamp(app.now())
  const subs: Submission[] = []
  const itemsOf = (due: readonly BatchRecord[]) => createItemsOf(app, deps, specs, input.source, due, GATHERED_ITEMS)
  const recorded = await submissions(app, deps, lane, input, specs, started)
  const uploads = itemsOf(recorded.map((s) => s.batch).filter((b) => b.batchId === null && b.inputFileId === null))
  for (const sub of recorded) {
    const batch = await ensureSubmitted(deps.store, lane, sub, uploads, now, input.signal)
    if (batch.landedAt === null) subs.push({ ...sub, batch })
  }
  const batches = subs.map((s) => s.batch)
  if (!input.wait && subs.length > 0) return { runs: [], batches, failures: '', failed: 0, unanswered: 0 }
  const sleep = input.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }))
  const statuses = await waitForBatches(deps.store, lane, batches, { ...input, sleep, now })
  const ledger = createLedger(input.cap)
  const failed: BatchOutcome[] = []
  const landings = itemsOf(batches)
  for (const sub of subs) {
    const spec = specs.find((s) => s.name === sub.batch.judgment)!
    const job = { ledger, price: input.price, signal: input.signal }
    failed.push(...(await landBatch(deps, lane, spec, sub, landings, statuses.get(sub.batch.tag)!, job)))
  }
  const { outcome, unanswered } = await countRows(app, deps, ledger, specs, input.source)
  if (unanswered > 0) outcome.error = new Error(unansweredMessage(failed, unanswered))
  const provenance = await sourceProvenance(app, input.project, input.source)
  const runIds = new Map(
    specs.map((s) => [s.name, batches.find((b) => b.judgment === s.name)?.runId ?? newRunId(started)]),
  )
  const pass = {
    project: input.project,
    record: specs,
    named: input.specs,
    provenance,
    outcome,
    ledger,
    started,
    runIds,
  }
  const runs = await recordRuns(app, pass)
  const landed = deps.store.listBatches(specs.map((s) => s.name)).filter((b) => batches.some((s) => s.tag === b.tag))
  return { runs, batches: landed, failures: failureText(failed), failed: failed.length, unanswered }
}

/**
 * The batches pending from earlier runs and new ones for the rest, recorded as the rows are read:
 * entries only, their requests made again from the rows when the batches are uploaded and landed.
 */
async function submissions(
  app: App,
  deps: DepsWith<Store>,
  lane: BatchLane,
  input: BatchRunInput,
  specs: readonly Spec[],
  started: Date,
): Promise<Submission[]> {
  const pending = pendingBatches(
    deps.store,
    specs.map((s) => s.name),
  )
  const now = timestamp(app.now())
  const recorders = new Map(
    specs.map((spec) => {
      const runId = pending.find((b) => b.judgment === spec.name)?.runId ?? newRunId(started)
      const intent = { judgment: spec.name, runId, model: modelFor(spec, deps), price: input.price, now }
      return [spec.name, createIntentRecorder(deps.store, deps.engine!, lane, intent)]
    }),
  )
  const held = pendingQuestions(deps.store, pending)
  const gatherer = createItemGatherer(deps, specs, held, (judgment, item) => recorders.get(judgment)!.add(item))
  for await (const sourced of rowsOf(app, input.source)) gatherer.add(sourced)
  const recovered = pending.map((batch): Submission => ({ batch, recovering: true }))
  const fresh = specs.flatMap((spec) => recorders.get(spec.name)!.finish())
  return [...recovered, ...fresh]
}

async function countRows(
  app: App,
  deps: DepsWith<Store>,
  ledger: Ledger,
  specs: readonly Spec[],
  source: RowSource,
): Promise<{ outcome: RowsOutcome; unanswered: number }> {
  const counter = createLandedCounter(deps, ledger, specs)
  for await (const sourced of rowsOf(app, source)) counter.add(sourced)
  const { outcome, unanswered } = counter.result()
  // The answers that landed were counted from the store with the rest: they were asked, not cached.
  for (const spec of specs) {
    const tally = ledger.tally(spec.name)
    tally.cached = Math.max(0, tally.cached - tally.asked)
  }
  return { outcome, unanswered }
}
