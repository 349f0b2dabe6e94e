import { questionChanges, type AskingSide, type Change } from '../core/compare/changes.ts'
import { compareQuestion, type QuestionComparison } from '../core/compare/compare.ts'
import { modelFor } from '../core/judge/deps.ts'
import { sumTallies, type JudgmentRef, type ReplayRow, type ReplayTotals } from '../core/reports/replay.ts'
import { sharedQuestions, type JudgmentPair } from '../core/reports/shadow.ts'
import { countingVerdicts } from '../core/review/double-review.ts'
import type { Comparisons } from '../core/review/comparison-verdict.ts'
import type { AnswerKey, Verdicts } from '../core/review/verdicts.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { RunRecord, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { costPer1000 } from './compare-cost.ts'
import { judgeData, type DataInput } from './compare-file.ts'
import { NO_MEMO, truthDigest, type CompareMemo, type Gathered } from './compare-memo.ts'
import { pairOf, replayRows, storedRows, type Replayed, type ReplayInput } from './replay.ts'

/**
 * A comparison of a candidate spec with the live one on the live judgment's kept rows (docs/shadow.md, Comparing a
 * candidate).
 */
export interface CompareReport {
  readonly live: JudgmentRef
  readonly candidate: JudgmentRef
  /** What the rows were: `kept rows of <judgment>`, or the data file's path. */
  readonly source: string
  /** Rows kept for the live judgment (0 for a data file), and the states compared (both labels known). */
  readonly kept: number
  readonly compared: number
  /** The margin of "no difference shown" and of the gate. */
  readonly margin: number
  /**
   * Each spec's expected cost of 1,000 rows like the kept ones, asked afresh (its own questions; null when not
   * estimable).
   */
  readonly cost_per_1000: { readonly live: number | null; readonly candidate: number | null }
  /** What this comparison asked of the engine (nothing when read from the store). */
  readonly totals: ReplayTotals | null
  /** The replay run recorded for the candidate; null when nothing was judged. */
  readonly run: RunRecord | null
  /** Per question the two specs share, in the live spec's order. */
  readonly questions: Readonly<Record<string, QuestionComparison>>
}

/** What compareKept and compareStored need beyond replay's input. */
export interface CompareInput extends ReplayInput {
  readonly margin: number
}

/**
 * `judge compare`: replays the candidate on the kept rows (store first, within the cap) and compares it with the live
 * spec.
 */
export async function compareKept(app: App, input: CompareInput): Promise<CompareReport> {
  const done = await replayRows(app, input)
  const specs = withDependencies(input.candidate, [done.pair.candidate])
  return reportFromDone(app, input, done, {
    source: `kept rows of ${done.pair.live.name}`,
    totals: sumTallies(specs.map((s) => done.ledger.tally(s.name))),
    run: done.run,
  })
}

/** `judge compare --data FILE`: both specs judged on the rows of a data file (app/compare-file.ts), then compared. */
export async function compareFile(app: App, input: DataInput & { readonly margin: number }): Promise<CompareReport> {
  const done = await judgeData(app, input)
  // A candidate of the live judgment's name shares its tally: each name is counted once.
  const names = new Set(
    [
      ...withDependencies(input.live, [done.pair.live]),
      ...withDependencies(input.candidate, [done.pair.candidate]),
    ].map((s) => s.name),
  )
  return reportFromDone(app, input, done, {
    source: input.label,
    totals: sumTallies([...names].map((n) => done.ledger.tally(n))),
    run: null,
  })
}

/**
 * GET /v1/compare: the same comparison on the kept rows whose candidate answers the store holds,
 * asking nothing. With a memo (a server's), the rows gathered are reused while no process has
 * written to the stores read, and each question's comparison while its rows' known labels and the
 * margin are the same.
 */
export async function compareStored(
  app: App,
  input: Omit<CompareInput, 'cap' | 'concurrency'>,
  memo: CompareMemo = NO_MEMO,
): Promise<CompareReport> {
  const pair = pairOf(input)
  const [liveDeps, candidateDeps] = [app.depsFor(input.live), app.depsFor(input.candidate)]
  const specs = withDependencies(input.candidate, [pair.candidate])
  const key = JSON.stringify([
    [pair.live.name, pair.live.hash, modelFor(pair.live, liveDeps), pair.live.questions.map((q) => q.fingerprint)],
    ...specs.map((s) => [s.name, s.hash, modelFor(s, candidateDeps), s.questions.map((q) => q.fingerprint)]),
  ])
  const files = await filesOf(app, pair)
  const gathered = memo.gathered(key, [...new Set([liveDeps.store, candidateDeps.store])], () => {
    const done = storedRows(app, input)
    return gatheredOf(app, input, done.pair, done.kept.length, done.rows)
  })
  return reportOf(
    app,
    input,
    pair,
    gathered,
    files,
    { source: `kept rows of ${pair.live.name}`, totals: null, run: null },
    memo,
  )
}

/** The answer key, the standing verdicts and the comparison verdicts of the live judgment. */
interface Known {
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  readonly comparisons: Comparisons
}

async function filesOf(app: App, pair: JudgmentPair): Promise<Known> {
  const [key, reviews, comparisons] = await Promise.all([
    app.files.key(pair.live),
    app.files.reviews(pair.live),
    app.files.comparisons(pair.live),
  ])
  return { key, verdicts: countingVerdicts(reviews), comparisons }
}

/**
 * What a comparison takes of the rows: each shared question's compared rows, and each spec's cost of rows like them.
 */
function gatheredOf(
  app: App,
  input: Pick<CompareInput, 'live' | 'candidate'>,
  pair: JudgmentPair,
  kept: number,
  rows: readonly ReplayRow[],
): Gathered {
  return {
    kept,
    compared: rows.length,
    rows: new Map(sharedQuestions(pair).map(({ live }) => [live.name, comparedRows(rows, live.name)])),
    cost_per_1000: {
      live: costPer1000(app.depsFor(input.live), pair.live, rows),
      candidate: costPer1000(app.depsFor(input.candidate), pair.candidate, rows),
    },
  }
}

async function reportFromDone(
  app: App,
  input: Omit<CompareInput, 'cap' | 'concurrency'>,
  done: Pick<Replayed, 'pair' | 'kept' | 'rows'>,
  spent: Pick<CompareReport, 'source' | 'totals' | 'run'>,
): Promise<CompareReport> {
  const files = await filesOf(app, done.pair)
  return reportOf(
    app,
    input,
    done.pair,
    gatheredOf(app, input, done.pair, done.kept.length, done.rows),
    files,
    spent,
    NO_MEMO,
  )
}

function reportOf(
  app: App,
  input: Omit<CompareInput, 'cap' | 'concurrency'>,
  pair: JudgmentPair,
  gathered: Gathered,
  known: Known,
  spent: Pick<CompareReport, 'source' | 'totals' | 'run'>,
  memo: CompareMemo,
): CompareReport {
  const changesOf = changeFinder(app, input)
  const questions = Object.fromEntries(
    [...gathered.rows].map(([question, rows]) => {
      const truth = truthOf(pair.live, question, known.key, known.verdicts, known.comparisons)
      const changes = changesOf(pair, question)
      const compare = () =>
        compareQuestion({ judgment: pair.live.name, question, rows, truth, margin: input.margin, changes })
      const key = JSON.stringify([question, input.margin, changes, truthDigest(rows, truth)])
      return [question, memo.question(gathered, key, compare)]
    }),
  )
  return {
    live: { judgment: pair.live.name, spec_hash: pair.live.hash, model: modelFor(pair.live, app.depsFor(input.live)) },
    candidate: {
      judgment: pair.candidate.name,
      spec_hash: pair.candidate.hash,
      model: modelFor(pair.candidate, app.depsFor(input.candidate)),
    },
    kept: gathered.kept,
    compared: gathered.compared,
    margin: input.margin,
    cost_per_1000: gathered.cost_per_1000,
    ...spent,
    questions,
  }
}

/**
 * What differs in how the candidate asks each question (core/compare/changes.ts), and the store: only answers kept in
 * one store are the same by construction.
 */
function changeFinder(
  app: App,
  input: Pick<CompareInput, 'live' | 'candidate'>,
): (pair: JudgmentPair, question: string) => Change[] {
  const [liveDeps, candidateDeps] = [app.depsFor(input.live), app.depsFor(input.candidate)]
  const live: AskingSide = { specs: input.live.specs, modelOf: (s) => modelFor(s, liveDeps) }
  const candidate: AskingSide = { specs: input.candidate.specs, modelOf: (s) => modelFor(s, candidateDeps) }
  const store: Change[] = liveDeps.store === candidateDeps.store ? [] : ['store']
  return (pair, question) => [...questionChanges(live, candidate, pair, question), ...store]
}

function comparedRows(rows: readonly ReplayRow[], question: string) {
  return rows.flatMap((r) =>
    r.live[question] === undefined || r.candidate[question] === undefined
      ? []
      : [{ stateHash: r.stateHash, live: r.live[question], candidate: r.candidate[question] }],
  )
}

/**
 * The known true labels of a question's rows: a standing verdict's labels, else a comparison verdict's, else the key's
 * label.
 */
export function truthOf(
  spec: Spec,
  question: string,
  key: AnswerKey,
  verdicts: Verdicts,
  comparisons: Comparisons = new Map(),
): Map<string, readonly string[]> {
  const truth = new Map<string, readonly string[]>()
  for (const row of key.values()) {
    const label = row.labels[question]
    if (label !== undefined) truth.set(row.stateHash, [label])
  }
  for (const c of comparisons.values())
    if (c.judgment === spec.name && c.question === question) truth.set(c.state_hash, c.labels)
  for (const v of verdicts.values()) {
    if (
      v.judgment !== spec.name ||
      v.question !== question ||
      v.verdict === 'needs_context' ||
      v.verdict === 'ambiguous' ||
      v.labels.length === 0
    )
      continue
    truth.set(v.state_hash, v.labels)
  }
  return truth
}
