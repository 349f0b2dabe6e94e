/** A server-side rate limit as engines enforce it: at most `requests` in any `windowMs`. */
export interface RateLimit {
  readonly requests: number
  readonly windowMs: number
  /** The Retry-After header sent with a refusal; none when absent. */
  readonly retryAfter?: string
}

/** A sliding window of admitted requests. */
export interface RateWindow {
  /** Admits a request at `now`, or refuses it when the window is full. */
  admit(now: number): boolean
  /** Requests refused so far. */
  readonly refused: number
}

/** A window over `limit`. */
export function createRateWindow(limit: RateLimit): RateWindow {
  const admitted: number[] = []
  let refused = 0
  return {
    admit(now) {
      while (admitted.length > 0 && admitted[0] <= now - limit.windowMs) admitted.shift()
      if (admitted.length >= limit.requests) {
        refused++
        return false
      }
      admitted.push(now)
      return true
    },
    get refused() {
      return refused
    },
  }
}
