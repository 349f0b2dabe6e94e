import type { SampleStratum } from './stratified.ts'
import { Z95 } from './wilson.ts'

/** A figure with its 95% interval. */
export interface Estimate {
  readonly point: number
  readonly interval: readonly [number, number]
  readonly standard_error: number
}

/**
 * The stratified delete-one jackknife: the figure `of` over every stratum's rows, and its
 * variance Σ_h (1 − f_h) (n_h − 1)/n_h Σ_i (θ_(h,i) − θ̄_(h))², θ_(h,i) the figure with row i of
 * stratum h left out (JKn; Wolter, *Introduction to Variance Estimation*, 2007, ch. 4). A Wald
 * interval θ ± z·SE, clipped to `range`. Null when the figure over all rows is undefined (NaN); a
 * replicate that is undefined is left out of its stratum's sum. One stratum with f = 0 is the
 * plain jackknife of Quenouille and Tukey.
 */
export function jackknife<Row>(
  strata: readonly SampleStratum<Row>[],
  of: (strata: readonly SampleStratum<Row>[]) => number,
  range: readonly [number, number] = [-1, 1],
  z = Z95,
): Estimate | null {
  const point = of(strata)
  if (!Number.isFinite(point)) return null
  let variance = 0
  for (const [h, s] of strata.entries()) {
    const n = s.rows.length
    if (n < 2) continue
    const replicates: number[] = []
    // The rows without row i, in their order: one array, of which replicate i + 1 changes one place (row i comes back
    // where row i + 1 was), rather than a copy of n − 1 rows per replicate.
    const rest = s.rows.slice(1)
    const replicate = strata.map((t, k) => (k === h ? { ...s, rows: rest } : t))
    for (let i = 0; i < n; i++) {
      if (i > 0) rest[i - 1] = s.rows[i - 1]
      const value = of(replicate)
      if (Number.isFinite(value)) replicates.push(value)
    }
    if (replicates.length < 2) continue
    const mean = replicates.reduce((a, b) => a + b, 0) / replicates.length
    const sum = replicates.reduce((a, v) => a + (v - mean) ** 2, 0)
    variance += (s.fpc * (replicates.length - 1) * sum) / replicates.length
  }
  const se = Math.sqrt(variance)
  return {
    point,
    interval: [Math.max(range[0], point - z * se), Math.min(range[1], point + z * se)],
    standard_error: se,
  }
}
