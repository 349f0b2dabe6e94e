import type { StoredAnswer } from '../../ports/answer-store.ts'
import { tidy } from '../judge/answer.ts'
import { shares, totalVariation } from './drift.ts'
import type { Tally } from '../judge/ledger.ts'
import { sampleRank } from '../stats/sample-rank.ts'
import { sharedQuestions, type JudgmentPair, type QuestionPair } from './shadow.ts'
import type { RunRecord, Spec, State } from '../types.ts'

/** Most rows that would change listed per question. */
export const REPLAY_SAMPLE = 10

/** One kept row with the live and the candidate label of each question. */
export interface ReplayRow {
  /** The kept row's state hash (the live judgment's). */
  readonly stateHash: string
  readonly state: State
  /** Live label per question; a question is absent when the store no longer holds its live answer. */
  readonly live: Readonly<Record<string, string>>
  /** Candidate label per question. */
  readonly candidate: Readonly<Record<string, string>>
}

/** A kept row whose label the candidate would change. */
export interface ChangedRow {
  readonly state_hash: string
  readonly state: State
  readonly live: string
  readonly candidate: string
}

/** How the candidate compares with the live judgment on one question. */
export interface QuestionReplay {
  /** Rows with both a live and a candidate label. */
  readonly rows: number
  readonly agree: number
  /** Share of compared rows with equal labels; null when none were compared. */
  readonly agreement: number | null
  /** Rows whose live answer is no longer in the store (the live question or model changed). */
  readonly live_missing: number
  /** Count per live label, then per candidate label. */
  readonly confusion: Record<string, Record<string, number>>
  readonly live_mix: Record<string, number>
  readonly candidate_mix: Record<string, number>
  /** Total variation distance between the two mixes; null when no rows were compared. */
  readonly distance: number | null
  readonly changed: number
  /** Up to REPLAY_SAMPLE changed rows, in a fixed pseudo-random order. */
  readonly sample: ChangedRow[]
}

/** A judgment as the report names it. */
export interface JudgmentRef {
  readonly judgment: string
  readonly spec_hash: string
  readonly model: string
}

/** What the replay spent, over the candidate and the judgments it depends on. */
export interface ReplayTotals {
  readonly cost: number
  readonly asked: number
  readonly cached: number
  readonly requests: number
}

/** The whole replay report, as `judge replay --json` prints it. */
export interface ReplayReport {
  readonly live: JudgmentRef
  readonly candidate: JudgmentRef
  /** Rows kept for the live judgment. */
  readonly kept: number
  /** Of them, rows the candidate judged (fewer when its run failed). */
  readonly replayed: number
  readonly questions: Record<string, QuestionReplay>
  /** Question names only one side asks; they are not compared. */
  readonly live_only: string[]
  readonly candidate_only: string[]
  readonly totals: ReplayTotals
  /** The candidate's run, or null when nothing was judged. */
  readonly run: RunRecord | null
}

/** The live labels of one kept row from its stored answers (keyed by fingerprint); missing ones are absent. */
export function liveLabelsOf(spec: Spec, stored: ReadonlyMap<string, StoredAnswer>): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const q of spec.questions) {
    const answer = stored.get(q.fingerprint)
    if (answer) labels[q.name] = answer.label
  }
  return labels
}

/** Compares the two labels of one question over the replayed rows. */
export function compareQuestion(liveJudgment: string, pair: QuestionPair, rows: readonly ReplayRow[]): QuestionReplay {
  const confusion = emptyTable(pair.live.labels, pair.candidate.labels)
  const liveCounts = zeros(pair.live.labels)
  const candidateCounts = zeros(pair.candidate.labels)
  const changed: ChangedRow[] = []
  let compared = 0
  let missing = 0
  for (const row of rows) {
    const live = row.live[pair.name]
    const candidate = row.candidate[pair.name]
    if (candidate === undefined) continue
    if (live === undefined) {
      missing += 1
      continue
    }
    compared += 1
    confusion[live] ??= zeros(pair.candidate.labels)
    confusion[live][candidate] = (confusion[live][candidate] ?? 0) + 1
    liveCounts[live] = (liveCounts[live] ?? 0) + 1
    candidateCounts[candidate] = (candidateCounts[candidate] ?? 0) + 1
    if (live !== candidate) changed.push({ state_hash: row.stateHash, state: row.state, live, candidate })
  }
  const agree = compared - changed.length
  return {
    rows: compared,
    agree,
    agreement: compared === 0 ? null : tidy(agree / compared),
    live_missing: missing,
    confusion,
    live_mix: shares(liveCounts),
    candidate_mix: shares(candidateCounts),
    distance: compared === 0 ? null : totalVariation(shares(liveCounts), shares(candidateCounts)),
    changed: changed.length,
    sample: sampleOf(liveJudgment, pair.name, changed),
  }
}

/** Compares a candidate with the live judgment on every question they share, and names the rest. */
export function compareReplay(
  pair: JudgmentPair,
  rows: readonly ReplayRow[],
): Pick<ReplayReport, 'questions' | 'live_only' | 'candidate_only'> {
  const shared = sharedQuestions(pair)
  const questions: Record<string, QuestionReplay> = {}
  for (const q of shared) questions[q.name] = compareQuestion(pair.live.name, q, rows)
  const names = new Set(shared.map((q) => q.name))
  return {
    questions,
    live_only: pair.live.questions.map((q) => q.name).filter((n) => !names.has(n)),
    candidate_only: pair.candidate.questions.map((q) => q.name).filter((n) => !names.has(n)),
  }
}

/** The sum of the tallies of the judgments a replay judged. */
export function sumTallies(tallies: readonly Tally[]): ReplayTotals {
  const sum = { cost: 0, asked: 0, cached: 0, requests: 0 }
  for (const t of tallies) {
    sum.cost += t.cost
    sum.asked += t.asked
    sum.cached += t.cached
    sum.requests += t.requests
  }
  // Rounded as run records are, so the total of one judgment equals its run's cost.
  return { ...sum, cost: tidy(sum.cost) }
}

// Seeded by judgment, question and state hash (as the review sample is): the same rows are shown
// on every replay, and they are spread over the kept rows rather than the oldest ten.
function sampleOf(judgment: string, question: string, changed: readonly ChangedRow[]): ChangedRow[] {
  return changed
    .map((row) => ({ row, rank: sampleRank(judgment, question, row.state_hash) }))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, REPLAY_SAMPLE)
    .map(({ row }) => row)
}

function zeros(labels: readonly string[]): Record<string, number> {
  return Object.fromEntries(labels.map((l) => [l, 0]))
}

function emptyTable(rows: readonly string[], columns: readonly string[]): Record<string, Record<string, number>> {
  return Object.fromEntries(rows.map((l) => [l, zeros(columns)]))
}
