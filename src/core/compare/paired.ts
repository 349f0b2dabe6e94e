import { wilsonInterval, Z95 } from '../review/accuracy.ts'

/**
 * A 2 × 2 table of paired rows with a known true label: `both` right under both specs, `candidate`
 * right under the candidate only, `live` right under the live spec only, `neither` right.
 */
export interface PairedTable {
  readonly both: number
  readonly candidate: number
  readonly live: number
  readonly neither: number
}

/** The difference in accuracy (candidate minus live) on paired rows, its 95% interval and p value. */
export interface PairedDifference {
  readonly rows: number
  readonly difference: number
  readonly interval: readonly [number, number]
  /** McNemar's exact test of "equal accuracy": two-sided, on the rows only one spec gets right. */
  readonly p_value: number
}

/**
 * The paired difference of a table: the point (candidate − live) / n, Newcombe's hybrid score
 * interval (his method 10: the two Wilson intervals combined with the correlation of the pairs,
 * corrected for continuity), and McNemar's exact p value. Null for an empty table.
 */
export function pairedDifference(t: PairedTable): PairedDifference | null {
  const n = t.both + t.candidate + t.live + t.neither
  if (n === 0) return null
  const p1 = (t.both + t.candidate) / n
  const p2 = (t.both + t.live) / n
  const [l1, u1] = wilsonInterval(t.both + t.candidate, n, Z95)!
  const [l2, u2] = wilsonInterval(t.both + t.live, n, Z95)!
  const phi = correlation(t, n)
  const d = p1 - p2
  const lower = d - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
  const upper = d + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
  return { rows: n, difference: d, interval: [Math.max(-1, lower), Math.min(1, upper)], p_value: mcnemarExact(t.candidate, t.live) }
}

/** The correlation φ of the pairs, Newcombe's way: ad − bc pulled toward 0 by n/2 when positive, 0 when a margin is empty. */
function correlation(t: PairedTable, n: number): number {
  const margins = (t.both + t.candidate) * (t.live + t.neither) * (t.both + t.live) * (t.candidate + t.neither)
  if (margins === 0) return 0
  const cross = t.both * t.neither - t.candidate * t.live
  const adjusted = cross > 0 ? Math.max(0, cross - n / 2) : cross
  return adjusted / Math.sqrt(margins)
}

/** Two-sided exact McNemar p value: 2·P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), at most 1. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c
  if (n === 0) return 1
  const k = Math.min(b, c)
  // Summed in logs: n may be in the thousands.
  let logTerm = -n * Math.LN2 // P(X = 0)
  let tail = Math.exp(logTerm)
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((n - i + 1) / i)
    tail += Math.exp(logTerm)
  }
  return Math.min(1, 2 * tail)
}
