import type { AnswerCell } from '../../ports/answer-store.ts'
import { adjustedShare } from '../stats/adjustment.ts'
import { effectiveSizeInterval } from '../stats/effective-size.ts'
import { ppiMean } from '../stats/ppi.ts'
import { finiteCorrection, stratumShares } from '../stats/stratified.ts'
import type { QuestionSample } from './sample-design.ts'
import { STRATA, stratumOf, type Stratum } from './strata.ts'
import type { SampledRow } from './stratum-sample.ts'

/** How the true mix is estimated, as reports name it. */
export const MIX_METHOD = 'prediction-powered inference (PPI++: stratified, power-tuned)'

/** An estimated share with its 95% interval. */
export interface MixShare {
  readonly share: number
  readonly interval: readonly [number, number]
}

/** A question's label shares: as the model gives them, and the true shares estimated from the reviews. */
export interface LabelMix {
  readonly labels: readonly string[]
  /** Share of the answers per label, as the model labels them (every answer in the store). */
  readonly raw: Readonly<Record<string, number>>
  /** Estimated true share per label with a 95% interval; null when no estimate can be made. */
  readonly corrected: Readonly<Record<string, MixShare>> | null
  /** How `corrected` is estimated (MIX_METHOD). */
  readonly method: string
  /** Why there is no corrected mix, when there is none. */
  readonly reason: string | null
}

/** One stratum as the mix reads it: its answers, its model mix, its sample. */
interface MixStratum {
  /** The finite-population correction of its sample. */
  readonly fpc: number
  /** Share of the stratum's answers per label, exact. */
  readonly q: ReadonlyMap<string, number>
  readonly rows: readonly SampledRow[]
  /** The stratum's weight among the rows that can be labelled. */
  readonly weight: number
}

/**
 * The label mix of a question. The raw mix is exact (every answer is in the store). The true share
 * of label ℓ is estimated by prediction-powered inference: in each stratum, the model's share of ℓ
 * over all its answers, corrected by the mean difference between the truth and the model on the
 * reviewed rows, with the model's part scaled by a power-tuning factor λ in [0, 1] that minimises
 * the variance (PPI++); the strata are weighed as in the accuracy estimate. λ = 0 is the reviewed
 * rows alone, λ = 1 plain PPI, so a poor model costs nothing. docs/review.md, The true label mix.
 */
export function labelMix(
  labels: readonly string[],
  cells: readonly AnswerCell[],
  sampleDesign: QuestionSample,
  unsureBelow: number,
): LabelMix {
  const total = cells.reduce((n, c) => n + c.count, 0)
  const raw = Object.fromEntries(
    labels.map((l) => [
      l,
      total === 0 ? 0 : cells.filter((c) => c.label === l).reduce((n, c) => n + c.count, 0) / total,
    ]),
  )
  const base = { labels, raw, method: MIX_METHOD }
  if (total === 0) return { ...base, corrected: null, reason: 'no answers' }
  const missing = STRATA.filter((s) => sampleDesign.strata[s].size > 0 && sampleDesign.strata[s].rows.length === 0)
  if (missing.length > 0)
    return { ...base, corrected: null, reason: `no labelled sample in the ${missing.join(' and ')} stratum` }
  const strata = mixStrata(labels, cells, sampleDesign, unsureBelow)
  return { ...base, corrected: Object.fromEntries(labels.map((l) => [l, ppiShare(l, strata)])), reason: null }
}

function mixStrata(
  labels: readonly string[],
  cells: readonly AnswerCell[],
  sampleDesign: QuestionSample,
  unsureBelow: number,
): MixStratum[] {
  const weights = stratumShares(
    STRATA.map((s) => ({
      size: sampleDesign.strata[s].size,
      sampled: sampleDesign.strata[s].sampled,
      counted: sampleDesign.strata[s].rows.length,
    })),
  )
  return STRATA.map((s, i) => {
    const inStratum = cells.filter((c) => stratumOf(c, unsureBelow) === s)
    const n = inStratum.reduce((k, c) => k + c.count, 0)
    const q = new Map(
      labels.map((l) => [l, n === 0 ? 0 : inStratum.filter((c) => c.label === l).reduce((k, c) => k + c.count, 0) / n]),
    )
    const sample = sampleDesign.strata[s as Stratum]
    return { fpc: finiteCorrection(sample), q, rows: sample.rows, weight: weights[i] }
  })
}

/** A row's truth for one label: its share of the row's true labels (a row both labels fit counts half to each). */
function truthOf(row: SampledRow, label: string): number {
  return row.truth.includes(label) ? 1 / row.truth.length : 0
}

/**
 * The PPI++ estimate of one label's share (ppiMean) and its 95% interval: Wilson's at the effective
 * sample size, as the accuracy estimate's, so that with λ = 0 it is about the reviewed rows' own
 * stratified Wilson interval, and it stays inside 0..1 with few reviews.
 */
function ppiShare(label: string, strata: readonly MixStratum[]): MixShare {
  const { point, variance } = ppiMean(
    strata.map((s) => ({
      weight: s.weight,
      fpc: s.fpc,
      modelMean: s.q.get(label) ?? 0,
      model: s.rows.map((r) => (r.label === label ? 1 : 0)),
      truth: s.rows.map((r) => truthOf(r, label)),
    })),
  )
  const share = Math.min(1, Math.max(0, point))
  // Every stratum with a labelled row has weight: n is the reviewed rows that count.
  const n = strata.reduce((k, s) => k + s.rows.length, 0)
  return { share, interval: effectiveSizeInterval(share, adjustedShare(share * n, n), variance).interval }
}
