import { timestamp } from '../judge/deps.ts'

/** One day, in milliseconds. */
export const DAY_MS = 86_400_000

/**
 * The time before which a judgment with `retain_days` keeps nothing of its rows: `days` whole
 * days before `now`, as the store and the reviews file write times, so that the two compare as text.
 */
export function retentionCutoff(now: Date, days: number): string {
  return timestamp(new Date(now.getTime() - days * DAY_MS))
}
