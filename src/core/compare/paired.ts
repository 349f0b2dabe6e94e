import { mcnemarExact } from '../stats/mcnemar.ts'
import { newcombeInterval } from '../stats/newcombe.ts'

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
 * interval (newcombeInterval) and McNemar's exact p value (mcnemarExact). Null for an empty table.
 */
export function pairedDifference(t: PairedTable): PairedDifference | null {
  const n = t.both + t.candidate + t.live + t.neither
  const interval = newcombeInterval({ both: t.both, firstOnly: t.candidate, secondOnly: t.live, neither: t.neither })
  if (interval === null) return null
  const difference = (t.both + t.candidate) / n - (t.both + t.live) / n
  return { rows: n, difference, interval, p_value: mcnemarExact(t.candidate, t.live) }
}
