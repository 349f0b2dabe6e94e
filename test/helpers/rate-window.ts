/** A server-side rate limit as engines enforce it: at most `requests` in any `windowMs`. */
export interface RateLimit {
  readonly requests: number
  readonly windowMs: number
  /** The Retry-After header sent with a refusal; none when absent. */
  readonly retryAfter?: string
  /** Send retry-after-ms with a refusal: the time until the window frees a place. */
  readonly retryAfterMs?: boolean
  /** The limit halves once this many requests were admitted, as a limit that moves mid-run. */
  readonly halvesAfter?: number
}

/** A sliding window of admitted requests. */
export interface RateWindow {
  /** Admits a request at `now`, or refuses it when the window is full. */
  admit(now: number): boolean
  /** Requests refused so far. */
  readonly refused: number
  /** Milliseconds from `now` until the window frees a place (0 when it has one). */
  freeInMs(now: number): number
  /** The limit in force now: requests a window. */
  readonly requests: number
}

/** A window over `limit`. */
export function createRateWindow(limit: RateLimit): RateWindow {
  const admitted: number[] = []
  let refused = 0
  let total = 0
  const requests = () =>
    limit.halvesAfter !== undefined && total >= limit.halvesAfter ? Math.floor(limit.requests / 2) : limit.requests
  const slide = (now: number) => {
    while (admitted.length > 0 && admitted[0] <= now - limit.windowMs) admitted.shift()
  }
  return {
    admit(now) {
      slide(now)
      if (admitted.length >= requests()) {
        refused++
        return false
      }
      admitted.push(now)
      total++
      return true
    },
    freeInMs(now) {
      slide(now)
      const over = admitted.length - requests()
      return over < 0 ? 0 : Math.max(0, admitted[over] + limit.windowMs - now)
    },
    get refused() {
      return refused
    },
    get requests() {
      return requests()
    },
  }
}
