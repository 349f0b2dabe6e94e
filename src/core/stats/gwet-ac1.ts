import type { PairStratum } from './kappa.ts'

/**
 * Gwet's AC1 between two labellings, design-weighted: (p_a − p_e) / (1 − p_e), p_a the weighted
 * share of rows given one label, p_e = Σ_k π_k (1 − π_k) / (Q − 1) with π_k = (r_k + c_k) / 2 the
 * mean of the two sides' shares of label k and Q the number of `labels` the question declares
 * (Gwet, *Handbook of Inter-Rater Reliability*, 4th ed., 2014, ch. 4; Gwet, 2008). NaN with no row
 * or fewer than two labels.
 */
export function gwetAc1(strata: readonly PairStratum[], labels: readonly string[]): number {
  const q = labels.length
  if (q < 2) return NaN
  // Each label's weight, at its first place in `labels`: the jackknife calls this once per row, and a few labels are
  // found sooner by their place than through a map. A label outside `labels` adds to no chance term.
  const pi = labels.map(() => 0)
  let agreed = 0
  let total = 0
  for (const s of strata) {
    if (s.rows.length === 0 || s.share === 0) continue
    const w = s.share / s.rows.length
    for (const r of s.rows) {
      const [a, b] = [labels.indexOf(r.a), labels.indexOf(r.b)]
      if (a >= 0) pi[a] += w / 2
      if (b >= 0) pi[b] += w / 2
      if (r.a === r.b) agreed += w
      total += w
    }
  }
  if (total === 0) return NaN
  let chance = 0
  for (const label of labels) {
    const p = pi[labels.indexOf(label)] / total
    chance += p * (1 - p)
  }
  chance /= q - 1
  return (agreed / total - chance) / (1 - chance)
}
