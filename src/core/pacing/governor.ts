import { EngineError, RetryLaterError } from '../../errors.ts'
import type { Engine, EngineRequest, EngineResult } from '../../ports/engine.ts'
import type { PaceStore } from '../../ports/pace-store.ts'
import { backoffMs } from './backoff.ts'
import { createHealth, type Health } from './health.ts'
import { createLimiter, type Limiter } from './limiter.ts'
import { createPace, type Pace, type Sleep } from './pace.ts'
import type { Patience } from './patience.ts'

/** The patience a call asks for: a server request's, or a CLI run's. */
export type PatienceName = 'request' | 'run'

/** What the governor is doing, for a progress bar. */
export interface GovernorStatus {
  /** When the wait for the engine's rate limit ends, or null when not waiting for it. */
  readonly rateLimitedUntil: number | null
  /** Engine requests failed since the last success. */
  readonly failing: number
  /** Engine requests allowed in flight (Infinity until the engine refuses one). */
  readonly concurrency: number
  /** Requests the engine refused for its rate (429) and for its own load (529), since the governor began. */
  readonly refused: number
  readonly overloaded: number
  /** The rate the pace keeps now, requests a minute (0: no pace). */
  readonly rpm: number
  /** The rate the engine last refused, requests a minute, when it refused one below ENGINE_RPM; else null. */
  readonly refusedRpm: number | null
}

/** Asks an engine at the pace and concurrency it can take, retrying as patience allows. */
export interface Governor {
  /** Asks once the pace and the concurrency allow; retries transient failures per the patience. */
  ask(engine: Engine, request: EngineRequest, patience: PatienceName, signal?: AbortSignal): Promise<EngineResult>
  status(): GovernorStatus
}

/** Options of createGovernor. */
export interface GovernorOptions {
  readonly store: PaceStore
  /** The engine's name in the store's pace table. */
  readonly key: string
  /** ENGINE_RPM; 0 for no pace. */
  readonly rpm: number
  /** ENGINE_MAX_WAIT_S in ms: the longest hold a rate limit sets, whatever the engine asks. */
  readonly ceilingMs: number
  readonly patience: Readonly<Record<PatienceName, Patience>>
  readonly now?: () => number
  readonly sleep?: Sleep
  readonly random?: () => number
}

/** The longest hold a refusal without Retry-After sets: the backoff from 1 s doubles up to it. */
export const RATE_BACKOFF_MAX_MS = 60_000

/** System One's status for an engine overloaded as a whole: retried with a backoff of its own. */
export const OVERLOADED = 529
/** The longest hold a 529 without Retry-After sets: the backoff from 1 s doubles up to it. */
export const OVERLOAD_BACKOFF_MAX_MS = 30_000

/** What a governor works with: its options, the pace, the limiter, the health, the 429 backoff level. */
interface Parts {
  readonly options: GovernorOptions
  readonly now: () => number
  readonly sleep: Sleep
  readonly random: () => number
  readonly pace: Pace
  readonly limiter: Limiter
  readonly health: Health
  /** Rounds of 429s since the last success, and when the last round was counted; likewise of 529s. */
  readonly rate: { level: number; cutAt: number }
  readonly overload: { level: number; cutAt: number }
  /** Requests refused (429) and overloaded (529) so far. */ readonly counts: { refused: number; overloaded: number }
}

/** A governor for one engine on one store. */
export function createGovernor(options: GovernorOptions): Governor {
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? realSleep
  const parts: Parts = {
    options,
    now,
    sleep,
    random: options.random ?? Math.random,
    pace: createPace({ store: options.store, key: options.key, rpm: options.rpm, now, sleep }),
    limiter: createLimiter(now),
    health: createHealth(options.ceilingMs),
    rate: { level: 0, cutAt: -Infinity },
    overload: { level: 0, cutAt: -Infinity },
    counts: { refused: 0, overloaded: 0 },
  }
  return {
    ask: (engine, request, name, signal) => ask(parts, engine, request, options.patience[name], signal),
    status: () => ({
      rateLimitedUntil: parts.pace.waitingUntil(),
      failing: parts.health.failing(),
      concurrency: parts.limiter.limit,
      ...parts.counts,
      rpm: parts.pace.rate().rpm,
      refusedRpm: parts.pace.rate().cut?.ceiling ?? null,
    }),
  }
}

async function ask(
  parts: Parts,
  engine: Engine,
  request: EngineRequest,
  p: Patience,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const deadline = p.deadlineMs === null ? Infinity : parts.now() + p.deadlineMs
  const timer = p.deadlineMs === null ? null : AbortSignal.timeout(p.deadlineMs)
  const callSignal = timer === null ? signal : signal ? AbortSignal.any([signal, timer]) : timer
  try {
    for (let n = 0; ; n++) {
      const outcome = await attempt(parts, engine, request, p, deadline, callSignal)
      if ('result' in outcome) return outcome.result
      const wait = afterFailure(parts, outcome.error, outcome.sentAt, n, p, deadline)
      if (wait > 0) await parts.sleep(wait, callSignal)
    }
  } catch (error) {
    if (signal?.aborted) throw new EngineError('the engine request was cancelled', null, { cause: signal.reason })
    if (timer?.aborted)
      throw new EngineError(`the engine did not answer within ${p.deadlineMs} ms, the bound on one request`, null, {
        cause: error,
      })
    throw error
  }
}

/** One attempt: a place in flight, a turn of the pace, the request. A transient failure is returned, not thrown. */
async function attempt(
  parts: Parts,
  engine: Engine,
  request: EngineRequest,
  p: Patience,
  deadline: number,
  signal?: AbortSignal,
): Promise<{ result: EngineResult } | { error: EngineError; sentAt: number }> {
  const { limiter, pace, health, now } = parts
  await limiter.acquire(signal)
  try {
    const requests = engine.estimate?.(request).requests ?? 1
    const away = await pace.turn(requests, p.refuseLonger ? Math.min(p.maxWaitMs, deadline - now()) : Infinity, signal)
    if (away > 0) throw rateLimitedError(away, `its next free turn is ${Math.ceil(away / 1000)} s away`)
    const sentAt = now()
    try {
      const result = await engine.ask(request, signal)
      // An engine may send more than it estimated (a model found to give no log probabilities is sampled k times).
      if ((result.requests ?? 1) > requests) pace.spent((result.requests ?? 1) - requests)
      limiter.succeeded()
      health.succeeded()
      parts.rate.level = 0
      parts.overload.level = 0
      return { result }
    } catch (error) {
      if (signal?.aborted || !(error instanceof EngineError) || !error.transient) throw error
      return { error, sentAt }
    }
  } finally {
    limiter.release()
  }
}

/**
 * Reacts to a failed attempt (the pace, the limit, the health) and returns the wait before the next, or throws when
 * patience is spent.
 */
function afterFailure(
  parts: Parts,
  error: EngineError,
  sentAt: number,
  attempt: number,
  p: Patience,
  deadline: number,
): number {
  const t = parts.now()
  parts.health.failed(t)
  const rateLimited = error.engineStatus === 429
  const named = error.retryAfterMs
  // A wait the engine names is never shorter than the backoff judge would take anyway: a zero would spin.
  let held = named === null ? null : Math.max(named, backoff(attempt, p, parts.random))
  if (rateLimited) {
    parts.counts.refused++
    parts.limiter.refused(sentAt)
    parts.pace.refused(sentAt)
    held ??= roundBackoff(parts, parts.rate, sentAt, t, RATE_BACKOFF_MAX_MS)
  } else if (error.engineStatus === OVERLOADED) {
    // The engine as a whole is overloaded: every request of the store backs off, as for a rate limit.
    parts.counts.overloaded++
    held ??= roundBackoff(parts, parts.overload, sentAt, t, OVERLOAD_BACKOFF_MAX_MS)
  }
  if (held !== null) {
    held = Math.min(held, parts.options.ceilingMs)
    parts.pace.hold(t + held)
    // The engine's own schedule is excused from giving up; judge's backoff beyond it is not.
    parts.health.excuse(Math.min(named ?? held, held))
  }
  const wait = held ?? backoff(attempt, p, parts.random)
  if (attempt >= p.retries || (p.refuseLonger && (wait > p.maxWaitMs || t + wait > deadline))) {
    throw rateLimited ? rateLimitedError(held ?? 1000, error.message, error) : spent(error, attempt + 1)
  }
  if (parts.health.givenUp(t, p.giveUpMs)) throw gaveUp(error, p.giveUpMs!)
  // A hold is waited out at the next turn of the pace, where every request of the store waits too.
  return held === null ? wait : 0
}

/**
 * A round of refusals raises the level once, as the limiter halves once: from 1 s doubling, jittered, up to `maxMs`.
 */
function roundBackoff(
  parts: Parts,
  round: { level: number; cutAt: number },
  sentAt: number,
  t: number,
  maxMs: number,
): number {
  if (sentAt >= round.cutAt) round.level++, (round.cutAt = t)
  return Math.round(Math.min(maxMs, 1000 * 2 ** Math.min(round.level - 1, 16) * (1 + parts.random())))
}

function backoff(attempt: number, p: Patience, random: () => number): number {
  return backoffMs(attempt, p.minBackoffMs, p.maxBackoffMs, random)
}

/** The 503 of a request the engine rate-limits past its patience: when to come back, and why. */
export function rateLimitedError(waitMs: number, reason: string, cause?: unknown): RetryLaterError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000))
  return new RetryLaterError(`the engine is rate-limiting requests (${reason}); try again in ${seconds} s`, seconds, {
    cause,
  })
}

function spent(error: EngineError, attempts: number): EngineError {
  if (attempts === 1) return error
  return new EngineError(`${error.message} (after ${attempts} attempts)`, error.engineStatus, {
    cause: error.cause,
    transient: error.transient,
  })
}

function gaveUp(error: EngineError, giveUpMs: number): EngineError {
  const seconds = Math.round(giveUpMs / 1000)
  return new EngineError(
    `the engine kept failing for over ${seconds} s without a success (last: ${error.message})`,
    error.engineStatus,
    { cause: error },
  )
}

async function realSleep(ms: number, signal?: AbortSignal): Promise<void> {
  const { setTimeout: delay } = await import('node:timers/promises')
  await delay(ms, undefined, { signal })
}
