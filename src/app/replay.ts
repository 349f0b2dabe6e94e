import { shortHash } from '../core/hash.ts'
import { modelFor, type JudgeDeps } from '../core/judge/deps.ts'
import { judgeRows, type JudgeRowsOptions } from '../core/judge/judge-rows.ts'
import { storedAnswers, type SpecResult } from '../core/judge/judge-row.ts'
import { createLedger, type Ledger } from '../core/judge/ledger.ts'
import { selectJudgments, withDependencies } from '../core/judge/select.ts'
import { compareReplay, liveLabelsOf, sumTallies, type ReplayReport, type ReplayRow } from '../core/reports/replay.ts'
import { pairJudgments, type JudgmentPair } from '../core/reports/shadow.ts'
import type { Project, RunRecord, SourcedRow } from '../core/types.ts'
import { UsageError } from '../errors.ts'
import type { KeptRow } from '../ports/kept-store.ts'
import type { App } from './app.ts'
import { checkPlans, planRows } from './plan.ts'
import { judgePass } from './open-runs.ts'

/** A candidate to replay on the rows kept for a live judgment. */
export interface ReplayInput {
  readonly candidate: Project
  readonly live: Project
  /** The live judgment, for a folder of several; the candidate's judgment of the same name is replayed. */
  readonly judgment?: string | null
  readonly cap: number
  readonly concurrency: number
  readonly signal?: AbortSignal
  /** Called with the count of kept rows before judging; returns the per-row callback. */
  readonly onStart?: (rows: number) => JudgeRowsOptions['onRow']
}

/**
 * `replay`: judges the candidate on every row kept for the live judgment, store first (answers of
 * shadow requests are reused), records a run of the candidate, and compares the labels.
 */
export async function replayKept(app: App, input: ReplayInput): Promise<ReplayReport> {
  const done = await replayRows(app, input)
  return reportOf(app, input, done.pair, done)
}

/**
 * What a replay judged: the pair of judgments, the kept rows, each replayed row's labels, what it spent and its run.
 */
export interface Replayed {
  readonly pair: JudgmentPair
  readonly kept: readonly KeptRow[]
  readonly rows: readonly ReplayRow[]
  readonly ledger: Ledger
  readonly run: RunRecord | null
}

/**
 * Judges the candidate on the rows kept for the live judgment and pairs each with its live labels: replay's work, for
 * replay and compare.
 */
export async function replayRows(app: App, input: ReplayInput): Promise<Replayed> {
  const pair = pairOf(input)
  const kept = app.depsFor(input.live).store.keptRows(pair.live.name)
  const ledger = createLedger(input.cap)
  // Nothing kept: nothing to judge, and a run of no rows would only add an empty mix to drift.
  if (kept.length === 0) return { pair, kept, rows: [], ledger, run: null }
  const rows = kept.map((k): SourcedRow => ({ row: k.state, where: `kept row ${k.stateHash} of ${pair.live.name}` }))
  const deps = app.depsFor(input.candidate)
  checkPlans(deps, await planRows(app, input.candidate, [pair.candidate], { kind: 'rows', rows }), input.cap)
  const labels: Record<string, string>[] = []
  const onRow = input.onStart?.(rows.length)
  const specs = withDependencies(input.candidate, [pair.candidate])
  // Only the candidate gets a run: its dependencies were judged on another judgment's rows.
  const provenance = {
    command: 'replay' as const,
    source: `kept rows of ${pair.live.name}`,
    sourceHash: shortHash(kept.map((k) => k.stateHash).join(',')),
  }
  const pass = {
    project: input.candidate,
    record: [pair.candidate],
    named: [pair.candidate],
    provenance,
    ledger,
    started: app.now(),
  }
  const [run] = await judgePass(app, pass, (onProgress) =>
    judgeRows({ deps, ledger, signal: input.signal, patience: 'run' }, specs, rows, {
      concurrency: input.concurrency,
      onProgress,
      onRow(seq, sourced, results) {
        labels[seq] = labelsOf(results.get(pair.candidate.name)!)
        onRow?.(seq, sourced, results)
      },
    }),
  )
  return { pair, kept, rows: compareRows(app.depsFor(input.live), pair, kept, labels), ledger, run }
}

/** The kept rows whose candidate answers the store holds, paired with their live labels, asking nothing. */
export function storedRows(
  app: App,
  input: Pick<ReplayInput, 'candidate' | 'live' | 'judgment'>,
): Pick<Replayed, 'pair' | 'kept' | 'rows'> {
  const pair = pairOf(input)
  const kept = app.depsFor(input.live).store.keptRows(pair.live.name)
  const deps = app.depsFor(input.candidate)
  const specs = withDependencies(input.candidate, [pair.candidate])
  const liveDeps = app.depsFor(input.live)
  // Each row's live answers are read right after its candidate answers: one state's answers share
  // a page of the store, which is then still in memory.
  const rows = kept.flatMap((k) => {
    const results = storedAnswers(deps, specs, { row: k.state, where: `kept row ${k.stateHash} of ${pair.live.name}` })
    return results ? compareRows(liveDeps, pair, [k], [labelsOf(results.get(pair.candidate.name)!)]) : []
  })
  return { pair, kept, rows }
}

/** The live judgment and the candidate of the same name (or the only one) that a replay or comparison pairs. */
export function pairOf(input: Pick<ReplayInput, 'candidate' | 'live' | 'judgment'>): JudgmentPair {
  const [live] = selectJudgments(input.live, input.judgment, 'one')
  const [pair] = pairJudgments([live], input.candidate.selected)
  if (pair) return pair
  const names = input.candidate.selected.map((s) => s.name).join(', ')
  throw new UsageError(
    `the candidate folder ${input.candidate.dir} holds no judgment named ${live.name} (it holds ${names})`,
  )
}

/**
 * The replayed rows with their live labels. Read after judging: a candidate question worded as
 * the live one shares its cache key, so what the candidate asked for a row is its live answer too.
 */
function compareRows(
  liveDeps: JudgeDeps,
  pair: JudgmentPair,
  kept: readonly KeptRow[],
  labels: readonly (Record<string, string> | undefined)[],
): ReplayRow[] {
  const model = modelFor(pair.live, liveDeps)
  const fingerprints = pair.live.questions.map((q) => q.fingerprint)
  return kept.flatMap((k, i): ReplayRow[] => {
    if (!labels[i]) return []
    const live = liveLabelsOf(pair.live, liveDeps.store.getAnswers(model, k.stateHash, fingerprints))
    return [{ stateHash: k.stateHash, state: k.state, live, candidate: labels[i] }]
  })
}

function reportOf(app: App, input: ReplayInput, pair: JudgmentPair, done: Replayed): ReplayReport {
  const specs = withDependencies(input.candidate, [pair.candidate])
  return {
    live: { judgment: pair.live.name, spec_hash: pair.live.hash, model: modelFor(pair.live, app.depsFor(input.live)) },
    candidate: {
      judgment: pair.candidate.name,
      spec_hash: pair.candidate.hash,
      model: modelFor(pair.candidate, app.depsFor(input.candidate)),
    },
    kept: done.kept.length,
    replayed: done.rows.length,
    ...compareReplay(pair, done.rows),
    totals: sumTallies(specs.map((s) => done.ledger.tally(s.name))),
    run: done.run,
  }
}

/** A judgment's label per question for one row. */
export function labelsOf(result: SpecResult): Record<string, string> {
  return Object.fromEntries(Object.entries(result.answers).map(([question, answer]) => [question, answer.label]))
}
