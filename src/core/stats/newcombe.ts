import { wilsonInterval, Z95 } from './wilson.ts'

/** A 2 × 2 table of paired rows: right on both sides, on the first only, on the second only, on neither. */
export interface PairedCounts {
  readonly both: number
  readonly firstOnly: number
  readonly secondOnly: number
  readonly neither: number
}

/**
 * Newcombe's hybrid score interval for the difference of two paired proportions, first minus second
 * (Newcombe 1998, method 10): the two Wilson intervals combined with the correlation of the pairs,
 * corrected for continuity, clipped to −1..1. Null for an empty table.
 */
export function newcombeInterval(t: PairedCounts, z = Z95): [number, number] | null {
  const n = t.both + t.firstOnly + t.secondOnly + t.neither
  if (n === 0) return null
  const p1 = (t.both + t.firstOnly) / n
  const p2 = (t.both + t.secondOnly) / n
  const [l1, u1] = wilsonInterval(t.both + t.firstOnly, n, z)!
  const [l2, u2] = wilsonInterval(t.both + t.secondOnly, n, z)!
  const phi = correlation(t, n)
  const d = p1 - p2
  const lower = d - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
  const upper = d + Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
  return [Math.max(-1, lower), Math.min(1, upper)]
}

/**
 * The correlation φ of the pairs, Newcombe's way: ad − bc pulled toward 0 by n/2 when positive, 0 when a margin is
 * empty.
 */
function correlation(t: PairedCounts, n: number): number {
  const margins =
    (t.both + t.firstOnly) * (t.secondOnly + t.neither) * (t.both + t.secondOnly) * (t.firstOnly + t.neither)
  if (margins === 0) return 0
  const cross = t.both * t.neither - t.firstOnly * t.secondOnly
  const adjusted = cross > 0 ? Math.max(0, cross - n / 2) : cross
  return adjusted / Math.sqrt(margins)
}
