import { ADJUSTMENT } from './adjustment.ts'
import { sampleVariance, stratifiedVariance, type SampleStratum } from './stratified.ts'
import { Z95 } from './wilson.ts'

/** Two labels given to one row by two sides: `a` the first (the model, or a first reviewer), `b` the second. */
export interface LabelPair {
  readonly a: string
  readonly b: string
}

/** One stratum of labelled pairs: its share of the population, its correction, its rows. */
export type PairStratum = SampleStratum<LabelPair>

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

function sharesOf(strata: readonly PairStratum[]): Shares {
  const a = new Map<string, number>()
  const b = new Map<string, number>()
  let po = 0
  for (const s of strata) {
    // Counted within the stratum first, so that shares of rows that all agree come to exactly 1.
    const count = (side: 'a' | 'b') => Map.groupBy(s.rows, (r) => r[side])
    for (const [label, rows] of count('a')) a.set(label, (a.get(label) ?? 0) + (s.share * rows.length) / s.rows.length)
    for (const [label, rows] of count('b')) b.set(label, (b.get(label) ?? 0) + (s.share * rows.length) / s.rows.length)
    po += (s.share * s.rows.filter((r) => r.a === r.b).length) / s.rows.length
  }
  let pe = 0
  for (const [label, share] of a) pe += share * (b.get(label) ?? 0)
  return { po, pe, a, b }
}

/**
 * Cohen's κ = (p_o − p_e) / (1 − p_e) over the design's rows, each weighed by its stratum's share
 * over its rows, with a Wald interval κ ± z·SE clipped to −1..1. SE is the delta method's: a row
 * with labels (j, k) has the influence on κ
 *   IF(j, k) = [(o − p_o)(1 − p_e) + (p_o − 1)(c_j + r_k − 2 p_e)] / (1 − p_e)²
 * (o = 1 when j = k; r and c the two sides' label shares), and the variance of κ is the stratified
 * variance of those influences. For one stratum without finite population that is the
 * large-sample variance of Fleiss, Cohen and Everitt (1969). As for the estimate's interval, each
 * stratum's table is pulled in before its variance is taken: ADJUSTMENT pseudo-rows that agree,
 * spread over the diagonal as chance would (r_j c_j / p_e), and ADJUSTMENT that disagree, spread
 * off it (r_j c_k / (1 − p_e)), so a stratum whose few rows all agree still adds variance.
 */
export function cohenKappa(strata: readonly PairStratum[], z = Z95): KappaResult {
  const used = strata.filter((s) => s.rows.length > 0)
  if (used.length === 0) return { reason: 'no rows', raw_agreement: null }
  const shares = sharesOf(used)
  const { po, pe } = shares
  if (pe >= 1 - 1e-12)
    return { reason: 'both sides gave every row one and the same label, so κ is undefined', raw_agreement: po }
  const kappa = (po - pe) / (1 - pe)
  const se = Math.sqrt(
    stratifiedVariance(
      used.map((s) => ({ share: s.share, fpc: s.fpc, n: s.rows.length, within: withinVariance(s, shares) })),
    ),
  )
  const interval: [number, number] = [Math.max(-1, kappa - z * se), Math.min(1, kappa + z * se)]
  return { kappa, interval, raw_agreement: po, chance_agreement: pe, standard_error: se }
}

/** The variance of the influence on κ over one stratum's rows, its table pulled in by ADJUSTMENT rows each way. */
function withinVariance(stratum: PairStratum, shares: Shares): number {
  const { po, pe, a, b } = shares
  const influence = (j: string, k: string) =>
    (((j === k ? 1 : 0) - po) * (1 - pe) + (po - 1) * ((b.get(j) ?? 0) + (a.get(k) ?? 0) - 2 * pe)) / (1 - pe) ** 2
  const cells = new Map<string, { j: string; k: string; count: number }>()
  const add = (j: string, k: string, count: number) => {
    const key = `${j}\0${k}`
    cells.set(key, { j, k, count: (cells.get(key)?.count ?? 0) + count })
  }
  for (const r of stratum.rows) add(r.a, r.b, 1)
  for (const [j, rj] of a)
    for (const [k, ck] of b) {
      const chance = rj * ck
      if (chance > 0) add(j, k, (ADJUSTMENT * chance) / (j === k ? pe : 1 - pe))
    }
  const n = stratum.rows.length
  const total = n + 2 * ADJUSTMENT
  let mean = 0
  let square = 0
  for (const { j, k, count } of cells.values()) {
    const v = influence(j, k)
    mean += (count * v) / total
    square += (count * v * v) / total
  }
  return sampleVariance(mean, square, n)
}
