import { Z95 } from '../stats/wilson.ts'
import type { Change } from './changes.ts'
import { sampleRank } from '../stats/sample-rank.ts'
import { discordantEstimate, noneDiffer } from './discordant.ts'
import { pairedDifference, type PairedDifference, type PairedTable } from './paired.ts'

/** The margin of the gate and of "no difference shown" when none is given: one point of accuracy. */
export const DEFAULT_MARGIN = 0.01

/** One compared row of a question: its state and each spec's label. */
export interface ComparedRow {
  readonly stateHash: string
  readonly live: string
  readonly candidate: string
}

/** A pair of labels and how many compared rows had it. */
export interface Flip {
  readonly live: string
  readonly candidate: string
  readonly rows: number
}

/** The p value below which, with an interval that leaves 0, a difference is called better or worse. */
export const SIGNIFICANCE = 0.05

/** What a comparison of one question says; `unchanged` when both specs ask it alike (core/compare/changes.ts). */
export type Verdict = 'better' | 'worse' | 'no difference shown' | 'not enough evidence' | 'unchanged'

/** How the difference was estimated. */
export type CompareMethod = 'discordant rows' | 'paired rows'

/** The comparison of one question (docs/shadow.md, Comparing a candidate). */
export interface QuestionComparison {
  /** False when both specs ask the question alike: its answers are the live ones by construction, outside any gate. */
  readonly changed: boolean
  /** What differs in how the two specs ask it; empty when it is unchanged. */
  readonly changes: readonly Change[]
  readonly rows: number
  /** Share of compared rows where the labels differ; null without rows. */
  readonly discordant: number | null
  readonly discordant_rows: number
  /** Label pairs of the discordant rows, most rows first. */
  readonly flips: readonly Flip[]
  /**
   * Discordant rows reviewed in the comparison's random order (the longest reviewed prefix), and the next to review.
   */
  readonly reviewed: number
  readonly next: string | null
  /** The paired figure over every compared row with a known true label (key, verdicts); null without any. */
  readonly paired: PairedDifference | null
  /**
   * Candidate minus live accuracy, its 95% interval for the traffic the compared rows sample, and p value; null when
   * not estimated.
   */
  readonly difference: number | null
  readonly interval: readonly [number, number] | null
  readonly p_value: number | null
  /**
   * The difference on the compared rows themselves, exact: known when every discordant row has a known label (or none
   * differ); else null.
   */
  readonly rows_difference: number | null
  readonly method: CompareMethod | null
  readonly verdict: Verdict
  /** Discordant rows still to review before the interval's half-width is at most the margin. */
  readonly reviews_needed: number
}

/** What compareQuestion reads. */
export interface CompareInput {
  readonly judgment: string
  readonly question: string
  readonly rows: readonly ComparedRow[]
  /** Known true labels by state hash: verdicts of either kind, and the key. */
  readonly truth: ReadonlyMap<string, readonly string[]>
  readonly margin: number
  /** What differs in how the two specs ask the question (questionChanges); empty: unchanged. */
  readonly changes: readonly Change[]
}

/** The place of a discordant row in the comparison's review order: a hash, as the queue's rank, but of its own. */
export function compareRank(judgment: string, question: string, stateHash: string): number {
  return sampleRank(judgment, 'compare', question, stateHash)
}

/** The discordant rows of a question in the comparison's review order. */
export function discordantOrder(judgment: string, question: string, rows: readonly ComparedRow[]): ComparedRow[] {
  return rows
    .filter((r) => r.live !== r.candidate)
    .map((r) => ({ r, rank: compareRank(judgment, question, r.stateHash) }))
    .sort((a, b) => a.rank - b.rank)
    .map((x) => x.r)
}

/**
 * Compares the two specs on one question. Where they agree their accuracy is the same, so the
 * difference is the discordant share times the candidate's net wins on the discordant rows,
 * estimated from the longest prefix of their review order in which every row has a known label (a
 * random sample of them): the `discordant rows` method (core/compare/discordant.ts: exact intervals
 * for the traffic the compared rows sample, McNemar's exact test; the difference on the rows
 * themselves once every discordant row is known). Without such a sample the paired figure over
 * every compared row with a known label is used (`paired rows`, Newcombe's interval). A question
 * both ask alike (no `changes`) is `unchanged`: its difference is exactly 0.
 */
export function compareQuestion(input: CompareInput): QuestionComparison {
  const compared = compareRows(input)
  return input.changes.length === 0 ? unchanged(compared) : { ...compared, changed: true, changes: input.changes }
}

/**
 * A question both specs ask alike: same cache key, same answers, so the difference is exactly 0 on
 * every row to come as on these; nothing to estimate or review.
 */
function unchanged(compared: Omit<QuestionComparison, 'changed' | 'changes'>): QuestionComparison {
  return {
    ...compared,
    changed: false,
    changes: [],
    next: null,
    difference: 0,
    interval: [0, 0],
    p_value: null,
    rows_difference: 0,
    method: null,
    verdict: 'unchanged',
    reviews_needed: 0,
  }
}

function compareRows(input: CompareInput): Omit<QuestionComparison, 'changed' | 'changes'> {
  const { rows, truth } = input
  const order = discordantOrder(input.judgment, input.question, rows)
  const share = rows.length === 0 ? null : order.length / rows.length
  let prefix = 0
  while (prefix < order.length && truth.has(order[prefix].stateHash)) prefix += 1
  const paired = pairedDifference(tableOf(rows, truth))
  const discordant =
    share === 0
      ? noneDiffer(rows.length)
      : prefix === 0
        ? null
        : discordantEstimate(tableOf(order.slice(0, prefix), truth), order.length, rows.length)
  const estimate = discordant ?? paired
  const needed = share === null ? 0 : Math.max(0, budget(share, order.length, input.margin) - prefix)
  const method: CompareMethod | null = discordant ? 'discordant rows' : paired ? 'paired rows' : null
  return {
    rows: rows.length,
    discordant: share,
    discordant_rows: order.length,
    flips: flipsOf(order),
    reviewed: prefix,
    next: order[prefix]?.stateHash ?? null,
    paired,
    difference: estimate?.difference ?? null,
    interval: estimate?.interval ?? null,
    p_value: estimate?.p_value ?? null,
    rows_difference: discordant?.rows_difference ?? null,
    method,
    verdict: verdictOf(estimate?.interval ?? null, needed, estimate?.p_value ?? null),
    reviews_needed: needed,
  }
}

/**
 * Discordant reviews that bring the half-width D·z·σ/√m to the margin, with σ = 1, the most a row's
 * difference (−1, 0 or 1) can vary; never more than every discordant row.
 */
export function budget(share: number, discordant: number, margin: number): number {
  if (discordant === 0) return 0
  return Math.min(discordant, Math.ceil(((share * Z95) / margin) ** 2))
}

/**
 * better or worse when the interval leaves 0 and McNemar's exact p is below SIGNIFICANCE; no
 * difference shown otherwise once the budget is reviewed; else not enough evidence.
 */
export function verdictOf(interval: readonly [number, number] | null, needed: number, p: number | null): Verdict {
  if (interval === null) return 'not enough evidence'
  const shown = p !== null && p < SIGNIFICANCE
  if (shown && interval[0] > 0) return 'better'
  if (shown && interval[1] < 0) return 'worse'
  return needed === 0 ? 'no difference shown' : 'not enough evidence'
}

/** The table of the rows with a known label; the others are passed over, so no list of the known ones is made. */
function tableOf(rows: readonly ComparedRow[], truth: ReadonlyMap<string, readonly string[]>): PairedTable {
  const t = { both: 0, candidate: 0, live: 0, neither: 0 }
  for (const r of rows) {
    const labels = truth.get(r.stateHash)
    if (labels === undefined) continue
    const [c, l] = [labels.includes(r.candidate), labels.includes(r.live)]
    if (c && l) t.both += 1
    else if (c) t.candidate += 1
    else if (l) t.live += 1
    else t.neither += 1
  }
  return t
}

function flipsOf(order: readonly ComparedRow[]): Flip[] {
  const counts = new Map<string, Flip>()
  for (const r of order) {
    const key = `${r.live}\0${r.candidate}`
    const f = counts.get(key)
    counts.set(key, { live: r.live, candidate: r.candidate, rows: (f?.rows ?? 0) + 1 })
  }
  return [...counts.values()].sort(
    (a, b) => b.rows - a.rows || a.live.localeCompare(b.live) || a.candidate.localeCompare(b.candidate),
  )
}
