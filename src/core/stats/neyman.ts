/** One stratum as Neyman allocation reads it. */
export interface NeymanStratum {
  /** Rows in the stratum, N_h. */
  readonly size: number
  /** Rows already in its sample. */
  readonly sampled: number
  /** The standard deviation of a row's value in the stratum, S_h (as well as it is known). */
  readonly spread: number
}

/**
 * How `extra` more sampled rows are best split between the strata: Neyman allocation, where each
 * stratum's share of the whole sample is N_h·S_h / Σ N·S. A stratum already sampled past its share
 * gets none, and none gets more than its unsampled rows; what one cannot take goes to the others
 * (water-filling). The counts, in the order of `strata`, are whole and sum to `extra`, or to every
 * unsampled row when fewer; a fraction left over goes to the strata with the largest remainders.
 */
export function neymanAllocation(strata: readonly NeymanStratum[], extra: number): number[] {
  const share = strata.map(() => 0)
  let open = strata.flatMap((s, h) => (s.size > s.sampled ? [h] : []))
  let left = Math.max(0, Math.trunc(extra))
  while (open.length > 0 && left > 0) {
    const weights = open.map((h) => strata[h].size * strata[h].spread)
    const sum = weights.reduce((a, b) => a + b, 0)
    const total = left + open.reduce((n, h) => n + strata[h].sampled + share[h], 0)
    const wanted = open.map((h, i) => (total * weights[i]) / sum - strata[h].sampled - share[h])
    const behind = open.filter((_, i) => wanted[i] > 0)
    if (behind.length < open.length) {
      open = behind
      continue
    }
    // Every open stratum is behind its share: give each its part, capped at its unsampled rows.
    const room = open.map((h) => strata[h].size - strata[h].sampled - share[h])
    const full = open.filter((_, i) => wanted[i] >= room[i])
    if (full.length > 0) {
      for (const h of full) {
        const r = strata[h].size - strata[h].sampled - share[h]
        share[h] += Math.min(r, left)
        left -= Math.min(r, left)
      }
      open = open.filter((h) => !full.includes(h))
      continue
    }
    const whole = wanted.map(Math.floor)
    let rest = left - whole.reduce((a, b) => a + b, 0)
    const byFraction = open.map((_, i) => i).sort((a, b) => wanted[b] - whole[b] - (wanted[a] - whole[a]))
    for (const i of byFraction)
      if (rest > 0) {
        whole[i] += 1
        rest -= 1
      }
    open.forEach((h, i) => {
      share[h] += whole[i]
    })
    left = 0
  }
  return share
}
