import type { PaceCut } from '../core/pacing/adaptive-rate.ts'

/** When a paced key may send, as reserved by reservePace. */
export interface PaceSlot {
  /** Milliseconds since the epoch. */
  readonly at: number
  /** False when `at` was later than the caller would wait: nothing was reserved. */
  readonly reserved: boolean
}

/** One day's engine spend of one source (such as the server). */
export interface DaySpend {
  /** The UTC day, YYYY-MM-DD. */
  readonly day: string
  readonly cost: number // USD
  readonly requests: number
}

/**
 * The engine's use, shared by every process on one store: the pace its requests keep, and what
 * they spent per day, so that processes together keep one pace and one daily cap.
 */
export interface PaceStore {
  /**
   * Reserves when a paced key (an engine) may next send: the later of `now` and the time the key
   * is free, which then moves on by `spacingMs`. When that time is after `latest`, nothing is
   * reserved. Every process sharing the store shares the key, so that together they keep one
   * pace. Times are milliseconds since the epoch.
   */
  reservePace(key: string, now: number, spacingMs: number, latest: number): PaceSlot
  /** Holds a paced key back until `until` (a rate limit's Retry-After); an earlier hold is kept if later. */
  holdPace(key: string, until: number): void
  /** The last cut of a paced key's rate after the engine refused it, or null when it never was. */
  paceCut(key: string): PaceCut | null
  /**
   * Records a cut of a paced key's rate, unless a cut was recorded at or after `sentAt` (the refused
   * request was sent before it: the same round of refusals); returns the cut in force.
   */
  cutPace(key: string, cut: PaceCut, sentAt: number): PaceCut

  /** Adds engine spend to one day of one source. */
  addSpend(day: string, source: string, cost: number, requests: number): void
  /** The spend of one source per day, newest day first, at most `limit` days. */
  spendByDay(source: string, limit: number): DaySpend[]
}
