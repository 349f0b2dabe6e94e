/**
 * How long one call to the engine may take, and what it does when the engine fails or refuses.
 * A server request is short on patience: a few quick retries, then an answer. A CLI run waits the
 * engine out, however long it asks, up to a ceiling, and gives up only when it keeps failing.
 */
export interface Patience {
  /** Attempts after the first for a transient failure (408, 429, 5xx, network, timeout). */
  readonly retries: number
  /** The longest single wait: for a turn of the pace, a Retry-After, a backoff. */
  readonly maxWaitMs: number
  /** True: a longer wait is not taken, the call fails at once. False: it waits maxWaitMs and tries again. */
  readonly refuseLonger: boolean
  /** Bound on the whole call, attempts and waits together, or null. */
  readonly deadlineMs: number | null
  /** Give up once the engine has failed for this long without a success (waits it asked for not counted), or null. */
  readonly giveUpMs: number | null
  /** Backoff after a failure with no Retry-After: from minBackoffMs, doubling, jittered, at most maxBackoffMs. */
  readonly minBackoffMs: number
  readonly maxBackoffMs: number
}

/** The longest single wait a server request takes: a rate limit asking for more is answered 503 at once. */
export const REQUEST_MAX_WAIT_MS = 5_000

/** A server request's (and a library call's) patience: 2 retries, waits up to 5 s, all within `deadlineMs`. */
export function requestPatience(deadlineMs: number): Patience {
  return {
    retries: 2,
    maxWaitMs: REQUEST_MAX_WAIT_MS,
    refuseLonger: true,
    deadlineMs,
    giveUpMs: null,
    minBackoffMs: 500,
    maxBackoffMs: REQUEST_MAX_WAIT_MS,
  }
}

/**
 * A CLI run's patience: every transient failure retried, waits up to `maxWaitMs`, giving up after `giveUpMs` of
 * failure.
 */
export function runPatience(maxWaitMs: number, giveUpMs: number): Patience {
  return {
    retries: Infinity,
    maxWaitMs,
    refuseLonger: false,
    deadlineMs: null,
    giveUpMs,
    minBackoffMs: 500,
    maxBackoffMs: Math.min(30_000, maxWaitMs),
  }
}
