/**
 * Whether the engine keeps failing: the time since the first failure after the last success,
 * less the waits the engine asked for (Retry-After), which are its own schedule, not trouble.
 */
export interface Health {
  failed(now: number): void
  succeeded(): void
  /** Counts a wait the engine asked for; at most `ceilingMs` in all between two successes. */
  excuse(ms: number): void
  /** Whether the trouble has lasted longer than `giveUpMs` (never when null). */
  givenUp(now: number, giveUpMs: number | null): boolean
  /** Failures since the last success. */
  failing(): number
}

/** A healthy record. */
export function createHealth(ceilingMs: number): Health {
  let since: number | null = null
  let excused = 0
  let failures = 0
  return {
    failed(now) {
      since ??= now
      failures++
    },
    succeeded() {
      since = null
      excused = 0
      failures = 0
    },
    excuse(ms) {
      excused = Math.min(ceilingMs, excused + ms)
    },
    givenUp(now, giveUpMs) {
      return giveUpMs !== null && since !== null && now - since - excused > giveUpMs
    },
    failing: () => failures,
  }
}
