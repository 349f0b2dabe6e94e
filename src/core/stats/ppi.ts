import { adjustedShare } from './adjustment.ts'

/** One stratum as prediction-powered inference reads it. */
export interface PpiStratum {
  /** The stratum's weight in the population mean, W_h. */
  readonly weight: number
  /** The finite-population correction of its sample, 1 − k_h / N_h. */
  readonly fpc: number
  /** The model's mean over every unit of the stratum, known exactly. */
  readonly modelMean: number
  /** The model's value on each sampled (reviewed) unit. */
  readonly model: readonly number[]
  /** The true value on each sampled unit, in the order of `model`. */
  readonly truth: readonly number[]
}

/** A mean estimated by PPI++, and its variance. */
export interface PpiMean {
  readonly point: number
  readonly variance: number
  /** The power-tuning factor used: 0 for the reviewed units alone, 1 for plain PPI. */
  readonly lambda: number
}

/**
 * The stratified mean of the truth by prediction-powered inference, power-tuned (PPI++, Angelopoulos
 * et al. 2023): in each stratum, λ times the model's mean over all its units, plus the mean of
 * truth − λ·model over its sampled units; the strata weighed by W_h. λ in [0, 1] minimises the
 * variance (tuning); it is kept only when it beats λ = 0, the sampled units alone, so a poor model
 * costs nothing. Strata of no weight or no sampled unit are left out.
 */
export function ppiMean(strata: readonly PpiStratum[]): PpiMean {
  const used = strata.filter((s) => s.weight > 0 && s.truth.length > 0)
  // Each stratum's factor in the variance of the weighted mean: W²·(1 − k/N)/n.
  const factor = used.map((s) => (s.weight * s.weight * s.fpc) / s.truth.length)
  const lambda = tuning(factor, used)
  const tuned = atLambda(used, factor, lambda)
  const alone = atLambda(used, factor, 0)
  // A model that does not earn the degree of freedom its λ costs is left out: the sampled units alone.
  return tuned.variance < alone.variance ? { ...tuned, lambda } : { ...alone, lambda: 0 }
}

/** The PPI point and variance at a given λ. */
function atLambda(
  used: readonly PpiStratum[],
  factor: readonly number[],
  lambda: number,
): { point: number; variance: number } {
  let point = 0
  let variance = 0
  used.forEach((s, h) => {
    const residual = s.truth.map((v, j) => v - lambda * s.model[j])
    point += s.weight * (lambda * s.modelMean + mean(residual))
    // A λ fitted to the sample costs the residual a degree of freedom: its variance is divided by n − 2.
    const fitted = lambda > 0 && lambda < 1 && residual.length > 2 ? (residual.length - 1) / (residual.length - 2) : 1
    variance += factor[h] * Math.max(fitted * varianceOf(residual), floor(residual.length))
  })
  return { point, variance }
}

/** λ = Σ c·Cov(y, f) / Σ c·Var(f), clipped to [0, 1]; 1 when the model's value never varies in the sample. */
function tuning(factor: readonly number[], used: readonly PpiStratum[]): number {
  let cov = 0
  let vf = 0
  factor.forEach((c, h) => {
    cov += c * covariance(used[h].truth, used[h].model)
    vf += c * varianceOf(used[h].model)
  })
  return vf === 0 ? 1 : Math.min(1, Math.max(0, cov / vf))
}

/**
 * The least variance a stratum's residual is taken to have: that of a unit differing from the model
 * with probability a/(n + 2a), a the ADJUSTMENT, as if the sample had a pseudo-disagreement. It
 * keeps a sample in which the model was never wrong from claiming no uncertainty at all, and is
 * below the residual's own variance whenever the sample shows any.
 */
function floor(n: number): number {
  const p = adjustedShare(0, n)
  return p * (1 - p)
}

/** The mean of a stratum's values: never empty, as a stratum without a sampled unit is left out. */
function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length
}

function covariance(a: readonly number[], b: readonly number[]): number {
  if (a.length < 2) return 0
  const ma = mean(a)
  const mb = mean(b)
  return a.reduce((s, v, i) => s + (v - ma) * (b[i] - mb), 0) / (a.length - 1)
}

function varianceOf(xs: readonly number[]): number {
  return covariance(xs, xs)
}
