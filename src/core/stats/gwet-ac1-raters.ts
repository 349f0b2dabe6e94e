/** One unit (row) rated by any number of raters: the label each gave, missing ratings left out. */
export type RatedUnit = readonly string[]

/**
 * Gwet's AC1 over many raters with missing ratings, as irrCAC's `gwet.ac1.raw` (unweighted):
 * p_a the mean, over the units with two ratings or more, of Σ_k r_ik (r_ik − 1) / (r_i (r_i − 1));
 * π_k the mean over every unit with a rating of r_ik / r_i; p_e = Σ_k π_k (1 − π_k) / (Q − 1),
 * Q the number of `labels`; AC1 = (p_a − p_e) / (1 − p_e) (Gwet, *Handbook of Inter-Rater
 * Reliability*, 4th ed., 2014, ch. 4). A rating outside `labels` is left out. NaN when no unit has
 * two ratings or fewer than two labels.
 */
export function gwetAc1Raters(units: readonly RatedUnit[], labels: readonly string[]): number {
  return ac1OfUnits(ac1Units(units, labels), labels)
}

/**
 * What one rated unit adds to AC1: each label's share of its ratings, in the order the labels first
 * appear, and each label's r_ik (r_ik − 1) / (r_i (r_i − 1)) when it has two ratings or more (null
 * when fewer). Null for a unit with no rating in the labels.
 */
export interface Ac1Unit {
  readonly shares: readonly (readonly [label: string, share: number])[]
  readonly agreement: readonly number[] | null
}

/** Each unit's part of AC1, read once: a jackknife recomputes AC1 from them without reading a rating again. */
export function ac1Units(units: readonly RatedUnit[], labels: readonly string[]): (Ac1Unit | null)[] {
  return units.map((unit) => {
    const ratings = unit.filter((l) => labels.includes(l))
    const r = ratings.length
    if (r === 0) return null
    const counts = Map.groupBy(ratings, (l) => l)
    return {
      shares: [...counts].map(([label, same]) => [label, same.length / r] as const),
      agreement: r < 2 ? null : [...counts.values()].map((same) => (same.length * (same.length - 1)) / (r * (r - 1))),
    }
  })
}

/** AC1 from its units' parts (ac1Units) over `labels`: gwetAc1Raters, summed in the same order. */
export function ac1OfUnits(units: readonly (Ac1Unit | null)[], labels: readonly string[]): number {
  const q = labels.length
  if (q < 2) return NaN
  const pi = new Map<string, number>()
  let rated = 0
  let paired = 0
  let agreement = 0
  for (const unit of units) {
    if (unit === null) continue
    rated += 1
    for (const [label, share] of unit.shares) pi.set(label, (pi.get(label) ?? 0) + share)
    if (unit.agreement === null) continue
    paired += 1
    for (const term of unit.agreement) agreement += term
  }
  if (paired === 0) return NaN
  let chance = 0
  for (const label of labels) {
    const p = (pi.get(label) ?? 0) / rated
    chance += p * (1 - p)
  }
  chance /= q - 1
  return (agreement / paired - chance) / (1 - chance)
}
