import type { QuestionScore } from './accuracy.ts'
import type { QuestionSample } from './sample-design.ts'
import { stratifiedProportion, type Cell } from '../stats/stratified-proportion.ts'
import { STRATA, type Stratum } from './strata.ts'
import type { StratumSample } from './stratum-sample.ts'

/** How the interval is computed, as reports name it. */
export const METHOD = 'stratified Wilson (Agresti–Coull-adjusted variance, finite-population corrected)'

/** What one stratum contributes to the estimate. */
export interface StratumFigure {
  readonly stratum: Stratum
  /** Answers in the stratum. */
  readonly size: number
  /** The stratum's share of the rows that can be labelled, as the estimate weighs it; null when unknown. */
  readonly weight: number | null
  /** Rows in its sample, labelled or not. */
  readonly sampled: number
  readonly counted: number
  readonly correct: number
  /** correct / counted, null when nothing is counted. */
  readonly accuracy: number | null
  readonly needs_context: number
  readonly ambiguous: number
  /** Reviewed rows left out of the sample, behind a row of the rank order not reviewed yet. */
  readonly outside: number
  /** State hash of the next row to review for this stratum; null when every row is reviewed. */
  readonly next: string | null
  /** Reviews it takes before this stratum can be estimated. */
  readonly needed: number
}

/** The pooled figure over every row with a known label, as if they were a simple random sample. */
export interface NaiveFigure {
  readonly accuracy: number | null
  readonly interval: readonly [number, number] | null
  readonly counted: number
}

/** A question's accuracy over all its answers, estimated from the random sample of each stratum. */
export interface AccuracyEstimate {
  readonly estimable: boolean
  readonly point: number | null
  readonly interval: readonly [number, number] | null
  readonly method: string
  /** Reviews it takes before the accuracy can be estimated; 0 when it can. */
  readonly needed: number
  readonly strata: readonly StratumFigure[]
  readonly naive: NaiveFigure
}

/** A stratum's sample as a cell of the stratified estimate: correct rows are successes. */
export function cellOf(sample: StratumSample): Cell {
  return {
    size: sample.size,
    sampled: sample.sampled,
    counted: sample.rows.length,
    successes: sample.rows.filter((r) => r.correct).length,
  }
}

/**
 * Estimates a question's accuracy from its sample design: the stratified estimate and its interval when
 * every stratum with rows has a sample to go on, else "not estimable" with the reviews it needs.
 * `naive` is the question's pooled score.
 */
export function estimateAccuracy(
  sampleDesign: QuestionSample,
  naive: Pick<QuestionScore, 'accuracy' | 'interval' | 'counted'>,
): AccuracyEstimate {
  const samples = STRATA.map((s) => sampleDesign.strata[s])
  const cells = samples.map(cellOf)
  const result = stratifiedProportion(cells)
  const needed = samples.reduce((n, s) => n + s.needed, 0)
  const labelled = cells.map((c) => (c.counted === 0 ? 0 : (c.size * c.counted) / c.sampled))
  const total = labelled.reduce((a, b) => a + b, 0)
  const strata = samples.map(
    (s, i): StratumFigure => ({
      stratum: s.stratum,
      size: s.size,
      weight: result === null || total === 0 ? null : labelled[i] / total,
      sampled: s.sampled,
      counted: cells[i].counted,
      correct: cells[i].successes,
      accuracy: cells[i].counted === 0 ? null : cells[i].successes / cells[i].counted,
      needs_context: s.needs_context,
      ambiguous: s.ambiguous,
      outside: s.outside,
      next: s.next,
      needed: s.needed,
    }),
  )
  return {
    estimable: result !== null,
    point: result?.point ?? null,
    interval: result?.interval ?? null,
    method: METHOD,
    needed: result === null ? Math.max(needed, 1) : 0,
    strata,
    naive: { accuracy: naive.accuracy, interval: naive.interval, counted: naive.counted },
  }
}
