import type { PairStratum } from './kappa.ts'

/** The disagreement weights of a weighted κ over ordered levels. */
export type KappaWeights = 'linear' | 'quadratic'

/**
 * Cohen's weighted κ over ordered levels, design-weighted: κ_w = 1 − Σ w_jk o_jk / Σ w_jk e_jk,
 * o the weighted share of rows labelled (j, k) (each row weighs its stratum's share over its rows,
 * as scikit-learn's `sample_weight`), e_jk = r_j c_k the product of the two sides' shares, and
 * w_jk = |j − k| (linear) or (j − k)² (quadratic) over the levels' places in `levels`
 * (scikit-learn, `cohen_kappa_score(weights=…)`; Cohen, 1968). A label outside `levels` is left
 * out. NaN when no row is left or chance disagreement is 0.
 */
export function weightedKappa(
  strata: readonly PairStratum[],
  levels: readonly string[],
  weights: KappaWeights,
): number {
  const q = levels.length
  const observed = Array.from({ length: q }, () => new Array<number>(q).fill(0))
  let total = 0
  for (const s of strata) {
    if (s.rows.length === 0 || s.share === 0) continue
    const w = s.share / s.rows.length
    // Each row's levels are looked up once, both to leave it out and to count it: the jackknife calls this per row.
    let inside = 0
    for (const r of s.rows) {
      const [j, k] = [levels.indexOf(r.a), levels.indexOf(r.b)]
      if (j < 0 || k < 0) continue
      observed[j][k] += w
      inside += 1
    }
    if (inside > 0) total += w * inside
  }
  if (total === 0) return NaN
  const rowShare = observed.map((row) => row.reduce((a, b) => a + b, 0) / total)
  const colShare = levels.map((_, k) => observed.reduce((a, row) => a + row[k], 0) / total)
  const weight = (j: number, k: number) => (weights === 'linear' ? Math.abs(j - k) : (j - k) ** 2)
  let disagreed = 0
  let chance = 0
  for (let j = 0; j < q; j++)
    for (let k = 0; k < q; k++) {
      disagreed += (weight(j, k) * observed[j][k]) / total
      chance += weight(j, k) * rowShare[j] * colShare[k]
    }
  return chance === 0 ? NaN : 1 - disagreed / chance
}
