import { ADJUSTMENT } from './adjustment.ts'
import { clopperPearson } from './clopper-pearson.ts'

/**
 * Pseudo-values at 0 and at 1 each stratum's variance takes in: the accuracy estimate's ADJUSTMENT, a quarter of z²
 * (docs/review.md).
 */
export const PSEUDO = ADJUSTMENT

/** One stratum of a population and the values a random sample of it found, each between 0 and 1. */
export interface MeanStratum {
  /** Rows in the stratum (N_h). */
  readonly size: number
  /** The sampled rows' values (0 or 1 for a proportion). */
  readonly values: readonly number[]
}

/** A mean estimated from a stratified random sample, with its interval and the sample size it is worth. */
export interface StratifiedMean {
  readonly point: number
  readonly interval: readonly [number, number]
  /** The simple random sample with the same variance (n*). */
  readonly effectiveSize: number
}

/**
 * The design-weighted mean of values between 0 and 1 from a stratified random sample, with a 95%
 * interval: each stratum weighs by its rows (W_h = N_h / N), the variance is Σ W_h² v_h / n_h with
 * v_h the stratum's variance after PSEUDO pseudo-values at 0 and at 1 (for a proportion that is
 * p̃_h(1 − p̃_h), p̃_h = (x_h + a)/(n_h + 2a)), the effective size n* = m̃(1 − m̃)/V, and the interval
 * Clopper-Pearson's at n* (the exact interval at the effective size, as for survey proportions).
 * No finite-population correction: the values are draws of a random process (an engine asked
 * again), whose mean is the target, not a fixed count of the rows. Null when a stratum with rows
 * has no value, or no stratum has rows.
 */
export function stratifiedMean(strata: readonly MeanStratum[]): StratifiedMean | null {
  const used = strata.filter((s) => s.size > 0)
  const total = used.reduce((n, s) => n + s.size, 0)
  if (total === 0 || used.some((s) => s.values.length === 0)) return null
  let point = 0
  let adjusted = 0
  let variance = 0
  for (const s of used) {
    const w = s.size / total
    const n = s.values.length
    const sum = s.values.reduce((a, b) => a + b, 0)
    const tilde = (sum + PSEUDO) / (n + 2 * PSEUDO)
    const spread = s.values.reduce((a, y) => a + (y - tilde) ** 2, 0) + PSEUDO * (tilde ** 2 + (1 - tilde) ** 2)
    point += (w * sum) / n
    adjusted += w * tilde
    variance += (w * w * (spread / (n + 2 * PSEUDO))) / n
  }
  const effectiveSize = (adjusted * (1 - adjusted)) / variance
  const [low, high] = clopperPearson(point * effectiveSize, effectiveSize)!
  return { point, interval: [Math.min(low, point), Math.max(high, point)], effectiveSize }
}
