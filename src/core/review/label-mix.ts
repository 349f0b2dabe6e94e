import type { AnswerCell } from '../../ports/answer-store.ts'
import { wilsonInterval } from './accuracy.ts'
import type { QuestionAudit } from './audit.ts'
import { ADJUSTMENT } from './proportion.ts'
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
  readonly size: number
  readonly sampled: number
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
export function labelMix(labels: readonly string[], cells: readonly AnswerCell[], audit: QuestionAudit, unsureBelow: number): LabelMix {
  const total = cells.reduce((n, c) => n + c.count, 0)
  const raw = Object.fromEntries(labels.map((l) => [l, total === 0 ? 0 : cells.filter((c) => c.label === l).reduce((n, c) => n + c.count, 0) / total]))
  const base = { labels, raw, method: MIX_METHOD }
  if (total === 0) return { ...base, corrected: null, reason: 'no answers' }
  const missing = STRATA.filter((s) => audit.strata[s].size > 0 && audit.strata[s].rows.length === 0)
  if (missing.length > 0) return { ...base, corrected: null, reason: `no labelled sample in the ${missing.join(' and ')} stratum` }
  const strata = mixStrata(labels, cells, audit, unsureBelow)
  return { ...base, corrected: Object.fromEntries(labels.map((l) => [l, ppiShare(l, strata)])), reason: null }
}

function mixStrata(labels: readonly string[], cells: readonly AnswerCell[], audit: QuestionAudit, unsureBelow: number): MixStratum[] {
  const labelled = STRATA.map((s) => {
    const { size, sampled, rows } = audit.strata[s]
    return size === 0 || sampled === 0 ? 0 : (size * rows.length) / sampled
  })
  const sum = labelled.reduce((a, b) => a + b, 0)
  return STRATA.map((s, i) => {
    const inStratum = cells.filter((c) => stratumOf(c.margin, unsureBelow) === s)
    const n = inStratum.reduce((k, c) => k + c.count, 0)
    const q = new Map(labels.map((l) => [l, n === 0 ? 0 : inStratum.filter((c) => c.label === l).reduce((k, c) => k + c.count, 0) / n]))
    return { size: audit.strata[s as Stratum].size, sampled: audit.strata[s as Stratum].sampled, q, rows: audit.strata[s as Stratum].rows, weight: sum === 0 ? 0 : labelled[i] / sum }
  })
}

/** A row's truth for one label: its share of the row's true labels (a row both labels fit counts half to each). */
function truthOf(row: SampledRow, label: string): number {
  return row.truth.includes(label) ? 1 / row.truth.length : 0
}

/** The PPI++ estimate of one label's share and its 95% interval. */
function ppiShare(label: string, strata: readonly MixStratum[]): MixShare {
  const used = strata.filter((s) => s.weight > 0 && s.rows.length > 0)
  // Each stratum's factor in the variance of the weighted mean: W²·(1 − k/N)/n.
  const factor = used.map((s) => (s.weight * s.weight * Math.max(0, 1 - s.sampled / s.size)) / s.rows.length)
  const f = used.map((s) => s.rows.map((r) => (r.label === label ? 1 : 0)))
  const y = used.map((s) => s.rows.map((r) => truthOf(r, label)))
  const tuned = estimate(label, used, factor, f, y, tuning(factor, f, y))
  // A model that does not earn the degree of freedom its λ costs is left out: the reviewed rows alone.
  const { point, variance } = tuned.variance < estimate(label, used, factor, f, y, 0).variance ? tuned : estimate(label, used, factor, f, y, 0)
  const share = Math.min(1, Math.max(0, point))
  if (variance === 0) return { share, interval: [share, share] }
  // Wilson's interval at the effective sample size, as the accuracy estimate's: with λ = 0 it is
  // about the reviewed rows' own stratified Wilson interval, and it stays inside 0..1 with few reviews.
  const n = used.reduce((k, s) => k + s.rows.length, 0)
  const adjusted = (share * n + ADJUSTMENT) / (n + 2 * ADJUSTMENT)
  const effective = (adjusted * (1 - adjusted)) / variance
  const interval = wilsonInterval(share * effective, effective)!
  return { share, interval: [Math.min(interval[0], share), Math.max(interval[1], share)] }
}

/** The PPI point and variance of one label's share at a given λ. */
function estimate(label: string, used: readonly MixStratum[], factor: readonly number[], f: readonly number[][], y: readonly number[][], lambda: number): { point: number; variance: number } {
  let point = 0
  let variance = 0
  used.forEach((s, h) => {
    const residual = y[h].map((v, j) => v - lambda * f[h][j])
    point += s.weight * (lambda * (s.q.get(label) ?? 0) + mean(residual))
    // A λ fitted to the sample costs the residual a degree of freedom: its variance is divided by n − 2.
    const fitted = lambda > 0 && lambda < 1 && residual.length > 2 ? (residual.length - 1) / (residual.length - 2) : 1
    variance += factor[h] * Math.max(fitted * sampleVariance(residual), floor(residual.length))
  })
  return { point, variance }
}

/** λ = Σ c·Cov(y, f) / Σ c·Var(f), clipped to [0, 1]; 1 when the model's label never varies in the sample. */
function tuning(factor: readonly number[], f: readonly number[][], y: readonly number[][]): number {
  let cov = 0
  let vf = 0
  factor.forEach((c, h) => {
    cov += c * covariance(y[h], f[h])
    vf += c * sampleVariance(f[h])
  })
  return vf === 0 ? 1 : Math.min(1, Math.max(0, cov / vf))
}

/**
 * The least variance a stratum's residual is taken to have: that of a row differing from the model
 * on this label with probability a/(n + 2a), a the accuracy estimate's adjustment, as if the sample
 * had a pseudo-disagreement. It keeps a sample in which the model was never wrong from claiming no
 * uncertainty at all, and is below the residual's own variance whenever the sample shows any.
 */
function floor(n: number): number {
  const p = ADJUSTMENT / (n + 2 * ADJUSTMENT)
  return p * (1 - p)
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length
}

function covariance(a: readonly number[], b: readonly number[]): number {
  if (a.length < 2) return 0
  const ma = mean(a)
  const mb = mean(b)
  return a.reduce((s, v, i) => s + (v - ma) * (b[i] - mb), 0) / (a.length - 1)
}

function sampleVariance(xs: readonly number[]): number {
  return covariance(xs, xs)
}
