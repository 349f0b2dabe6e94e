import { Z95 } from '../review/accuracy.ts'
import { stratifiedVariance, type DesignStratum } from './design.ts'

/** Cohen's κ between two labellings, the raw agreement beside it, and κ's 95% interval. */
export interface Kappa {
  readonly kappa: number
  readonly interval: readonly [number, number]
  /** Observed agreement p_o: the weighted share of rows given the same label. */
  readonly raw_agreement: number
  /** Agreement expected by chance from the two sides' label shares, p_e = Σ_k r_k c_k. */
  readonly chance_agreement: number
  /** The standard error of κ, by the delta method. */
  readonly standard_error: number
}

/** Why κ has no value: no rows, or both sides gave one and the same label (p_e = 1). */
export type KappaResult = Kappa | { readonly reason: string; readonly raw_agreement: number | null }

/** The weighted shares behind κ: observed agreement and each side's label shares. */
interface Shares {
  readonly po: number
  readonly pe: number
  readonly a: ReadonlyMap<string, number>
  readonly b: ReadonlyMap<string, number>
}

function sharesOf(strata: readonly DesignStratum[]): Shares {
  const a = new Map<string, number>()
  const b = new Map<string, number>()
  let po = 0
  for (const s of strata) {
    const w = s.share / s.rows.length
    for (const r of s.rows) {
      a.set(r.a, (a.get(r.a) ?? 0) + w)
      b.set(r.b, (b.get(r.b) ?? 0) + w)
      if (r.a === r.b) po += w
    }
  }
  let pe = 0
  for (const [label, share] of a) pe += share * (b.get(label) ?? 0)
  return { po, pe, a, b }
}

/**
 * Cohen's κ = (p_o − p_e) / (1 − p_e) over the design's rows, each weighed by its stratum's share
 * over its rows, with a Wald interval κ ± z·SE clipped to −1..1. SE is the delta method's: each
 * row's influence on κ is
 *   [(o_i − p_o)(1 − p_e) + (p_o − 1)(c_{a_i} + r_{b_i} − 2 p_e)] / (1 − p_e)²
 * (o_i whether the row's two labels agree, r and c the two sides' label shares), and its variance
 * the stratified one of those influences. For one stratum without finite population this is the
 * large-sample variance of Fleiss, Cohen and Everitt (1969), with n − 1 for n.
 */
export function cohenKappa(strata: readonly DesignStratum[], z = Z95): KappaResult {
  const used = strata.filter((s) => s.rows.length > 0)
  if (used.length === 0) return { reason: 'no rows', raw_agreement: null }
  const { po, pe, a, b } = sharesOf(used)
  if (pe >= 1 - 1e-12) return { reason: 'both sides gave every row one and the same label, so κ is undefined', raw_agreement: po }
  const kappa = (po - pe) / (1 - pe)
  const influence = used.map((s) => s.rows.map((r) => {
    const o = r.a === r.b ? 1 : 0
    return ((o - po) * (1 - pe) + (po - 1) * ((b.get(r.a) ?? 0) + (a.get(r.b) ?? 0) - 2 * pe)) / (1 - pe) ** 2
  }))
  const se = Math.sqrt(stratifiedVariance(used, influence))
  const interval: [number, number] = [Math.max(-1, kappa - z * se), Math.min(1, kappa + z * se)]
  return { kappa, interval, raw_agreement: po, chance_agreement: pe, standard_error: se }
}
