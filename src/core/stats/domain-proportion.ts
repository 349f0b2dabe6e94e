import { adjustedShare } from './adjustment.ts'
import { effectiveSizeInterval } from './effective-size.ts'
import { sampleVariance, stratifiedVariance, type SampleStratum } from './stratified.ts'
import { Z95 } from './wilson.ts'

/** A proportion over part of the population, with its 95% interval. */
export interface Proportion {
  readonly point: number
  readonly interval: readonly [number, number]
}

/** Which rows the proportion is taken over, and which of those count as successes. */
export interface Domain<Row> {
  readonly holds: (row: Row) => boolean
  readonly succeeds: (row: Row) => boolean
}

/**
 * The design-weighted share of successes among the rows of a domain (precision: the rows the model
 * gave label L, right when reviewed L), a ratio R = Σ_h W_h y_h/n_h ÷ Σ_h W_h d_h/n_h of two
 * stratified means (d_h rows of stratum h in the domain, y_h of them successes). Its variance is
 * the linearized one, of z = x (y − R) / X per row, Σ_h W_h² (1 − f_h) Var_h(z) / n_h; the interval
 * is Wilson's at the effective size R(1 − R) / V (effectiveSizeInterval). Each stratum's share of
 * successes within the domain is pulled in by ADJUSTMENT pseudo-successes and pseudo-failures in the
 * variance only, so a stratum whose domain rows are all right still adds variance. Null when no
 * sampled row is in the domain.
 */
export function domainProportion<Row>(
  strata: readonly SampleStratum<Row>[],
  domain: Domain<Row>,
  z = Z95,
): Proportion | null {
  const cells = strata
    .map((s) => {
      const inDomain = s.rows.filter(domain.holds)
      return { s, n: s.rows.length, d: inDomain.length, y: inDomain.filter(domain.succeeds).length }
    })
    .filter((c) => c.n > 0)
  const x = cells.reduce((sum, c) => sum + (c.s.share * c.d) / c.n, 0)
  if (x === 0) return null
  const point = cells.reduce((sum, c) => sum + (c.s.share * c.y) / c.n, 0) / x
  const adjusted = cells.map((c) => (c.d === 0 ? 0 : adjustedShare(c.y, c.d)))
  const r = cells.reduce((sum, c, i) => sum + (c.s.share * c.d * adjusted[i]) / c.n, 0) / x
  const variance = stratifiedVariance(
    cells.map((c, i) => {
      const share = c.d / c.n
      const q = adjusted[i]
      const mean = (share * (q - r)) / x
      const square = (share * (q * (1 - r) ** 2 + (1 - q) * r * r)) / (x * x)
      return { share: c.s.share, fpc: c.s.fpc, n: c.n, within: sampleVariance(mean, square, c.n) }
    }),
  )
  return { point, interval: effectiveSizeInterval(point, r, variance, z).interval }
}
