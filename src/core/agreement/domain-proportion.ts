import { wilsonInterval, Z95 } from '../review/accuracy.ts'
import { ADJUSTMENT } from '../review/proportion.ts'
import { stratifiedVariance, type DesignStratum, type LabelPair } from './design.ts'

/** A proportion over part of the population, with its 95% interval. */
export interface Proportion {
  readonly point: number
  readonly interval: readonly [number, number]
}

/** Which rows the proportion is taken over, and which of those count as successes. */
export interface Domain {
  readonly holds: (row: LabelPair) => boolean
  readonly succeeds: (row: LabelPair) => boolean
}

/**
 * The design-weighted share of successes among the rows of a domain (precision: the rows the model
 * gave label L, right when reviewed L), a ratio R = Σ_h W_h y_h/n_h ÷ Σ_h W_h d_h/n_h of two
 * stratified means (d_h rows of stratum h in the domain, y_h of them successes). Its variance is
 * the linearized one, of z = x (y − R) / X per row, Σ_h W_h² (1 − f_h) Var_h(z) / n_h; the interval
 * is Wilson's at the effective size R(1 − R) / V, as the estimate's (docs/review.md). As there, each
 * stratum's share of successes within the domain is pulled in by ADJUSTMENT pseudo-successes and
 * pseudo-failures in the variance only, so a stratum whose domain rows are all right still adds
 * variance. Null when no sampled row is in the domain.
 */
export function domainProportion(strata: readonly DesignStratum[], domain: Domain, z = Z95): Proportion | null {
  const cells = strata.map((s) => {
    const inDomain = s.rows.filter(domain.holds)
    return { s, n: s.rows.length, d: inDomain.length, y: inDomain.filter(domain.succeeds).length }
  }).filter((c) => c.n > 0)
  const x = cells.reduce((sum, c) => sum + (c.s.share * c.d) / c.n, 0)
  if (x === 0) return null
  const point = cells.reduce((sum, c) => sum + (c.s.share * c.y) / c.n, 0) / x
  const adjusted = cells.map((c) => (c.d === 0 ? 0 : (c.y + ADJUSTMENT) / (c.d + 2 * ADJUSTMENT)))
  const r = cells.reduce((sum, c, i) => sum + (c.s.share * c.d * adjusted[i]) / c.n, 0) / x
  const within = cells.map((c, i) => {
    const share = c.d / c.n
    const q = adjusted[i]
    const mean = (share * (q - r)) / x
    const square = (share * (q * (1 - r) ** 2 + (1 - q) * r * r)) / (x * x)
    return c.n < 2 ? 0 : ((square - mean * mean) * c.n) / (c.n - 1)
  })
  const variance = stratifiedVariance(cells.map((c) => c.s), within)
  if (!(variance > 0)) return { point, interval: [point, point] }
  const effective = (r * (1 - r)) / variance
  const [low, high] = wilsonInterval(point * effective, effective, z)!
  return { point, interval: [Math.min(low, point), Math.max(high, point)] }
}
