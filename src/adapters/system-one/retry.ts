import { setTimeout as delay } from 'node:timers/promises'

/** How often and how patiently a failed call is tried again. */
export interface RetryPolicy {
  /** Attempts after the first; 0 tries once. */
  readonly retries: number
  readonly minDelayMs: number
  readonly maxDelayMs: number
  /** Waits between attempts; rejects when the signal aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  /** A number in [0, 1), for jitter. */
  readonly random: () => number
}

/** One attempt's outcome: a value, or a failure that says whether another attempt may help. */
export type Attempt<T, F> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false
      readonly failure: F
      readonly retryable: boolean
      /** The wait the server asked for (Retry-After), in milliseconds, or null. */
      readonly retryAfterMs: number | null
    }

/** The outcome of every attempt together: the first value, or the last failure. */
export type Retried<T, F> =
  | { readonly ok: true; readonly value: T; readonly attempts: number }
  | { readonly ok: false; readonly failure: F; readonly attempts: number }

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are spent, sleeping between
 * attempts. A sleep cut short by the signal rejects, so a cancelled caller never waits it out.
 */
export async function retry<T, F>(
  attempt: (index: number) => Promise<Attempt<T, F>>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<Retried<T, F>> {
  for (let index = 0; ; index++) {
    const outcome = await attempt(index)
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: index + 1 }
    if (!outcome.retryable || index >= policy.retries) {
      return { ok: false, failure: outcome.failure, attempts: index + 1 }
    }
    await policy.sleep(retryDelay(index + 1, outcome.retryAfterMs, policy), signal)
  }
}

/** The wait before retry number `retry` (1-based): the server's Retry-After when given, capped, else backoff. */
export function retryDelay(retry: number, retryAfterMs: number | null, policy: RetryPolicy): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxDelayMs)
  return backoffDelay(retry, policy)
}

/**
 * Exponential backoff with jitter: retry n waits between base and twice base, where base doubles
 * from minDelayMs; never more than maxDelayMs. The jitter spreads out clients that failed together.
 */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const base = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (retry - 1))
  return Math.round(Math.min(policy.maxDelayMs, base * (1 + policy.random())))
}

/** Whether an HTTP status may succeed when asked again: 408, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599)
}

/**
 * A Retry-After header as milliseconds from `now`: delta-seconds or an HTTP date (a past date is 0).
 * Null when absent or unreadable, so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  if (!/[a-z]/i.test(text)) return null
  const date = Date.parse(text)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** The real sleep: a timer that the signal cancels. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal })
}
