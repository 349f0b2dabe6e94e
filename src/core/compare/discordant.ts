import { clopperPearson } from '../stats/clopper-pearson.ts'
import { mcnemarExact } from '../stats/mcnemar.ts'
import type { PairedTable } from './paired.ts'

/** The difference (candidate minus live accuracy) from the reviewed rows where the two specs differ. */
export interface DiscordantEstimate {
  /** Discordant rows reviewed. */
  readonly rows: number
  /**
   * D · (b − c)/m: the share of rows the specs label differently times the candidate's net wins
   * per reviewed row.
   */
  readonly difference: number
  /** The 95% interval for the traffic the compared rows sample (docs/shadow.md, The difference and its interval). */
  readonly interval: readonly [number, number]
  /** McNemar's exact test of "equal accuracy" on the reviewed rows: b against c. */
  readonly p_value: number
  /** (b − c)/n, exact, when every discordant row is reviewed (a census of the compared rows); else null. */
  readonly rows_difference: number | null
}

/**
 * The discordant-rows estimate. On a discordant row the candidate wins (only it is right: b), loses
 * (only the live spec is right: c) or ties (both or neither: t), so the traffic's difference is
 * δ · (2π − 1), with δ the share of rows the specs label differently and π the mean score of a
 * discordant row (1 a win, ½ a tie, 0 a loss). π gets the exact Clopper-Pearson interval from
 * b + t/2 of the m reviewed rows, δ from the k discordant of the n compared rows, and the interval
 * is the product's range over both: its lower end (2π_L − 1) times δ_U when negative, δ_L when not,
 * and its upper end likewise. The sign of the difference is the sign of 2π − 1, so whether the
 * interval leaves 0 is the exact binomial test of π = ½ (with no ties, McNemar's exact test).
 */
export function discordantEstimate(sample: PairedTable, discordant: number, compared: number): DiscordantEstimate {
  const m = sample.both + sample.candidate + sample.live + sample.neither
  const [wins, losses, ties] = [sample.candidate, sample.live, sample.both + sample.neither]
  const [pLower, pUpper] = clopperPearson(wins + ties / 2, m)!
  const [dLower, dUpper] = clopperPearson(discordant, compared)!
  const [lower, upper] = [2 * pLower - 1, 2 * pUpper - 1]
  return {
    rows: m,
    difference: ((discordant / compared) * (wins - losses)) / m,
    interval: [lower * (lower < 0 ? dUpper : dLower), upper * (upper > 0 ? dUpper : dLower)],
    p_value: mcnemarExact(wins, losses),
    rows_difference: m === discordant ? (wins - losses) / compared : null,
  }
}

/**
 * No compared row differs: on these rows the difference is exactly 0; in the traffic they sample
 * the specs may still differ on a share δ of rows, at most δ_U (the exact upper end for 0 of n), and
 * the difference is within ±δ_U.
 */
export function noneDiffer(compared: number): DiscordantEstimate {
  const upper = clopperPearson(0, compared)![1]
  return { rows: 0, difference: 0, interval: [-upper, upper], p_value: 1, rows_difference: 0 }
}
