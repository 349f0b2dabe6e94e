import type { RunFit } from '../fit/fit.ts'
import { createFitTally, type FitTally } from '../fit/fit-tally.ts'
import { tidy } from './answer.ts'
import { countSource, sourceCounts } from '../tally/sources.ts'
import type { LabelCount, ProbabilitySource, RunRecord, SourcedRow, Spec } from '../types.ts'
import type { Judging } from './deps.ts'
import { countStored, judgeOrdered, storedAnswers, type SpecResult } from './judge-row.ts'
import { tallyLabels, type LabelTally } from './label-tally.ts'
import type { Ledger } from './ledger.ts'
import { createRepeatMemo, type RepeatMemo } from './repeat-memo.ts'
import { createStateTally, tallyOver, type StateSet, type StateTally } from './state-set.ts'
import { tallyRoutes } from './route-tally.ts'

/** Answers of one judgment by the model the engine reported: asked in this pass, or from the store. */
export interface ModelTally {
  readonly asked: Map<string, number>
  readonly cached: Map<string, number>
}

/** What judging a stream of rows did, per judgment. */
export interface RowsOutcome {
  /** Rows judged, per judgment. */
  readonly rows: Map<string, number>
  /** Label counts per judgment, question and label. */
  readonly labels: Map<string, Map<string, Map<string, LabelTally>>>
  /** Rows per route per judgment and question, for the questions with `act` rules (core/judge/route-tally.ts). */
  readonly routes: Map<string, Map<string, Map<string, number>>>
  /** The distinct states judged per judgment, each with its rows. */
  readonly states: Map<string, StateTally>
  /** The reported models of the answers per judgment, for rows whose state came first. */
  readonly models: Map<string, ModelTally>
  /** The option masses per judgment and question, one per distinct state: the run's fit. */
  readonly fits: Map<string, Map<string, FitTally>>
  /** The answers per judgment, question and source of p, one per distinct state as the fit counts them. */
  readonly sources: Map<string, Map<string, Map<ProbabilitySource, number>>>
  /** The error that stopped the rows, or null when every row was judged. */
  error: Error | null
}

/** Options of judgeRows. */
export interface JudgeRowsOptions {
  readonly concurrency: number
  /** Called once per judged row, in the order rows finish. */
  readonly onRow?: (seq: number, sourced: SourcedRow, results: Map<string, SpecResult>) => void
  /** Called with the outcome as it stands: once before the first row, then after each row is counted. */
  readonly onProgress?: (outcome: RowsOutcome) => void
  /**
   * The distinct states expected per judgment (the plan's), taken over: each tally counts them at a
   * byte each, and only the states not expected take room of their own.
   */
  readonly expected?: ReadonlyMap<string, StateSet>
}

/**
 * Judges a stream of rows with judgments in dependency order (withDependencies), with bounded
 * concurrency, counting labels per judgment. The first error stops the stream and cancels the
 * engine requests still in flight; every answer received stays in the store. The outcome carries
 * that error instead of throwing it, so that the run is recorded. When the caller's signal aborts,
 * the error is `interrupted`, whatever the cancelled requests reported.
 */
export async function judgeRows(
  job: Judging,
  specs: readonly Spec[],
  rows: AsyncIterable<SourcedRow> | Iterable<SourcedRow>,
  options: JudgeRowsOptions,
): Promise<RowsOutcome> {
  const outcome = emptyOutcome(specs, (spec) => tallyOf(options.expected?.get(spec.name)))
  const stop = new AbortController()
  const inner: Judging = { ...job, signal: job.signal ? AbortSignal.any([job.signal, stop.signal]) : stop.signal }
  const running = new Set<Promise<void>>()
  const memo = createRepeatMemo<SpecResult>()
  let seq = 0
  const fail = (error: unknown) => {
    outcome.error ??= job.signal?.aborted ? interrupted() : error instanceof Error ? error : new Error(String(error))
    stop.abort(outcome.error)
  }
  const done = (n: number, sourced: SourcedRow, results: Map<string, SpecResult>) => {
    count(outcome, job.ledger, results, memo)
    options.onRow?.(n, sourced, results)
    options.onProgress?.(outcome)
  }
  options.onProgress?.(outcome)
  try {
    for await (const sourced of rows) {
      if (inner.signal!.aborted) break
      const n = seq++
      let stored: Map<string, SpecResult> | null
      try {
        stored = storedAnswers(inner.deps, specs, sourced, memo, job.reweigh)
      } catch (error) {
        fail(error)
        continue
      }
      // A row the store answers in full is done at once; only rows that ask take a slot.
      if (stored !== null) {
        countStored(job.ledger, stored)
        done(n, sourced, stored)
        continue
      }
      const task: Promise<void> = judgeOrdered(inner, specs, sourced).then((results) => done(n, sourced, results), fail)
      running.add(task)
      void task.finally(() => running.delete(task))
      if (running.size >= options.concurrency) await Promise.race(running)
    }
  } catch (error) {
    fail(error)
  }
  await Promise.all(running)
  if (!outcome.error && job.signal?.aborted) fail(interrupted())
  return outcome
}

function tallyOf(expected: StateSet | undefined): StateTally {
  return expected ? tallyOver(expected) : createStateTally()
}

/** An outcome of no rows yet, over the judgments given, each with the tally of states `states` gives it. */
export function emptyOutcome(specs: readonly Spec[], states: (spec: Spec) => StateTally): RowsOutcome {
  return {
    rows: new Map(specs.map((s) => [s.name, 0])),
    labels: new Map(specs.map((s) => [s.name, new Map()])),
    routes: new Map(specs.map((s) => [s.name, new Map()])),
    states: new Map(specs.map((s) => [s.name, states(s)])),
    models: new Map(specs.map((s) => [s.name, { asked: new Map(), cached: new Map() }])),
    fits: new Map(specs.map((s) => [s.name, new Map(s.questions.map((q) => [q.name, createFitTally()]))])),
    sources: new Map(specs.map((s) => [s.name, new Map(s.questions.map((q) => [q.name, new Map()]))])),
    error: null,
  }
}

/** The error of a run stopped by its caller (SIGINT, SIGTERM): the run is recorded `failed: interrupted`. */
export function interrupted(): Error {
  return new Error('interrupted')
}

function count(
  outcome: RowsOutcome,
  ledger: Ledger,
  results: Map<string, SpecResult>,
  memo: RepeatMemo<SpecResult>,
): void {
  for (const result of results.values()) {
    const m = outcome.states.get(result.spec.name)!.count(result.stateHash)
    countState(outcome, result, m, 1)
    if (m === 1) continue
    countDuplicate(ledger, result)
    memo.keep(result)
  }
}

/** One judgment's answers for one state, as an outcome counts them. */
export type CountedState = Pick<SpecResult, 'spec' | 'stateHash' | 'answers' | 'stored'>

/**
 * Counts `rows` rows of one judgment's state into an outcome, the state having come `m` times so
 * far, these rows included: a row at a time as rows are judged (`rows` 1), or all of a state's rows
 * at once (`rows` m). Its models and fit count once, with its first rows.
 */
export function countState(outcome: RowsOutcome, state: CountedState, m: number, rows: number): void {
  const name = state.spec.name
  outcome.rows.set(name, (outcome.rows.get(name) ?? 0) + rows)
  tallyLabels(outcome.labels.get(name)!, state.answers, m, rows)
  tallyRoutes(outcome.routes.get(name)!, state.spec, state.answers, rows)
  if (m > rows) return
  countModels(outcome.models.get(name)!, state)
  countAnswers(outcome, state)
}

function countModels(models: ModelTally, result: CountedState): void {
  for (const q of result.spec.questions) {
    const by = result.answers[q.name].cached ? models.cached : models.asked
    const stored = result.stored.get(q.fingerprint)!
    const reported = stored.reportedModel ?? stored.model
    by.set(reported, (by.get(reported) ?? 0) + 1)
  }
}

/** Counts each question's stored answer of a state into the run's fit (its option mass) and sources (its p's). */
function countAnswers(outcome: RowsOutcome, result: CountedState): void {
  const fits = outcome.fits.get(result.spec.name)!
  const sources = outcome.sources.get(result.spec.name)!
  for (const q of result.spec.questions) {
    const { optionMass, source } = result.stored.get(q.fingerprint)!
    fits.get(q.name)?.add(result.stateHash, optionMass)
    countSource(sources.get(q.name)!, source)
  }
}

// A row whose state came earlier in the pass is a duplicate of the data, not a cache hit: the
// answers it read from the store (or from the request in flight for its state) are taken back.
function countDuplicate(ledger: Ledger, result: SpecResult): void {
  const tally = ledger.tally(result.spec.name)
  tally.duplicates += 1
  for (const answer of Object.values(result.answers)) if (answer.cached) tally.cached -= 1
}

/**
 * The model the engine reported for a judgment's answers: the one that gave most of the answers
 * asked in the pass, else most of those read from the store; "" when there were none.
 */
export function reportedModelOf(models: ModelTally | undefined): string {
  for (const by of [models?.asked, models?.cached]) {
    const top = [...(by ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]
    if (top) return top[0]
  }
  return ''
}

/** The fit per question of one judgment of an outcome (core/fit/), against the spec's `min_fit`. */
export function fitOf(outcome: RowsOutcome, spec: Spec): RunFit {
  const tallies = outcome.fits.get(spec.name)
  return Object.fromEntries(
    spec.questions.map((q) => [q.name, (tallies?.get(q.name) ?? createFitTally()).fit(spec.minFit)]),
  )
}

/** The answers per question and source of p of one judgment of an outcome, as its run records them. */
export function sourcesOf(outcome: RowsOutcome, spec: Spec): NonNullable<RunRecord['sources']> {
  const bySource = outcome.sources.get(spec.name)
  return Object.fromEntries(spec.questions.map((q) => [q.name, sourceCounts(bySource?.get(q.name) ?? [])]))
}

/** The label counts of one judgment of an outcome, as the store records them. */
export function labelCountsOf(outcome: RowsOutcome, judgment: string, runId: string): LabelCount[] {
  const out: LabelCount[] = []
  for (const [question, byLabel] of outcome.labels.get(judgment) ?? []) {
    for (const [label, t] of byLabel)
      out.push({ run_id: runId, question, label, count: t.rows, states: t.states, squares: t.squares })
  }
  return out
}

/** A run id: the UTC start time and a short random suffix, sortable by time. */
export function newRunId(startedAt: Date, random: () => number = Math.random): string {
  const stamp = startedAt
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  const suffix = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')
  return `${stamp}-${suffix}`
}

/** The status of a run: complete, or `failed: <error>`. */
export function runStatus(error: Error | null): string {
  return error ? `failed: ${error.message}` : 'complete'
}

/** Builds a run record from its parts. */
export function runRecord(fields: Omit<RunRecord, 'status'> & { error: Error | null }): RunRecord {
  const { error, ...rest } = fields
  return { ...rest, cost: tidy(rest.cost), status: runStatus(error) }
}
