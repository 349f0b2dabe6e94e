import { setTimeout as delay } from 'node:timers/promises'
import { backoffMs } from '../core/pacing/backoff.ts'
import { cancelled, type Posted } from './engine-http.ts'

/** How a request that can be repeated (a GET) is tried: attempts in all, the backoff's bounds, its sleep and jitter. */
export interface Repeat {
  readonly attempts: number
  readonly minBackoffMs: number
  readonly maxBackoffMs: number
  /** The longest wait a Retry-After may set. */
  readonly maxWaitMs: number
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  readonly random?: () => number
}

/** A bulk lane's reads: 5 attempts, with a CLI run's backoff (from 500 ms, doubling, up to 30 s). */
export const READ_REPEAT: Repeat = { attempts: 5, minBackoffMs: 500, maxBackoffMs: 30_000, maxWaitMs: 60_000 }

/**
 * Sends a request that can be repeated until it succeeds or fails for good: a transient failure (a closed or
 * reset connection, a timeout, 408, 429, 5xx) is tried again after the engine's Retry-After, never shorter than
 * the backoff, up to `repeat.attempts` in all. Each attempt is a fresh `send`; as `send`, never throws.
 */
export async function sendRepeated(send: () => Promise<Posted>, repeat: Repeat, signal?: AbortSignal): Promise<Posted> {
  const sleep = repeat.sleep ?? ((ms: number, s?: AbortSignal) => delay(ms, undefined, { signal: s }))
  for (let attempt = 1; ; attempt++) {
    const posted = await send()
    if (posted.ok || !posted.failure.transient || attempt >= repeat.attempts) return posted
    const backoff = backoffMs(attempt - 1, repeat.minBackoffMs, repeat.maxBackoffMs, repeat.random ?? Math.random)
    const named = Math.min(posted.failure.retryAfterMs ?? 0, repeat.maxWaitMs)
    try {
      await sleep(Math.max(backoff, named), signal)
    } catch {
      return { ok: false, failure: cancelled(signal!) }
    }
  }
}
