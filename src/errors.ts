import { formatUsd } from './format.ts'

/**
 * The error hierarchy. Every error the product raises on purpose is a JudgeError: it carries the
 * HTTP status the server answers with and the exit status the CLI ends with, and its message says
 * what went wrong and where. Messages never contain secrets.
 */
export class JudgeError extends Error {
  override name = 'JudgeError'
  /** HTTP status for the server. */
  readonly status: number = 500
  /** Exit status for the CLI. */
  readonly exitCode: number = 1
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
  }
}

/** Wrong arguments or request shape (400, exit 2). */
export class UsageError extends JudgeError {
  override name = 'UsageError'
  override readonly status = 400
  override readonly exitCode = 2
}

/** Missing or wrong server token (401). */
export class UnauthorizedError extends JudgeError {
  override name = 'UnauthorizedError'
  override readonly status = 401
  override readonly exitCode = 2
}

/** A path that leaves the served folder (403). */
export class ForbiddenError extends JudgeError {
  override name = 'ForbiddenError'
  override readonly status = 403
  override readonly exitCode = 2
}

/** A path or route that does not exist (404). */
export class NotFoundError extends JudgeError {
  override name = 'NotFoundError'
  override readonly status = 404
  override readonly exitCode = 2
}

/** A known route asked with the wrong method (405). */
export class MethodNotAllowedError extends JudgeError {
  override name = 'MethodNotAllowedError'
  override readonly status = 405
  override readonly exitCode = 2
  readonly allow: readonly string[]
  constructor(message: string, allow: readonly string[]) {
    super(message)
    this.allow = allow
  }
}

/** A verdict for a row the queue does not offer as that kind (409). */
export class ConflictError extends JudgeError {
  override name = 'ConflictError'
  override readonly status = 409
  override readonly exitCode = 2
}

/** A request body over the limit (413). */
export class PayloadTooLargeError extends JudgeError {
  override name = 'PayloadTooLargeError'
  override readonly status = 413
  override readonly exitCode = 2
}

/** A spec file that does not load: names the file, the key path and the problem (422, exit 2). */
export class SpecError extends JudgeError {
  override name = 'SpecError'
  override readonly status = 422
  override readonly exitCode = 2
  readonly file: string
  readonly keyPath: string
  constructor(file: string, keyPath: string, problem: string, options?: { cause?: unknown }) {
    super(keyPath ? `${file}: ${keyPath}: ${problem}` : `${file}: ${problem}`, options)
    this.file = file
    this.keyPath = keyPath
  }
}

/** Input that cannot be judged: a row lacking a state column, a path that is not a spec (422, exit 2). */
export class InputError extends JudgeError {
  override name = 'InputError'
  override readonly status = 422
  override readonly exitCode = 2
}

/** The cost cap refused to ask; nothing was asked (422, exit 2). */
export class CostCapError extends JudgeError {
  override name = 'CostCapError'
  override readonly status = 422
  override readonly exitCode = 2
  readonly judgment: string
  readonly estimate: number
  readonly cap: number
  constructor(judgment: string, answers: number, requests: number, estimate: number, cap: number) {
    super(
      `judgment ${judgment}: asking ${answers} answer${answers === 1 ? '' : 's'} in ${requests} ` +
        `request${requests === 1 ? '' : 's'} would cost an estimated $${formatUsd(estimate)}, ` +
        `above the cap of $${formatUsd(cap)}; nothing was asked`,
    )
    this.judgment = judgment
    this.estimate = estimate
    this.cap = cap
  }
}

/** A row must be asked and ENGINE_API_KEY is unset; nothing was asked (503, exit 2). */
export class MissingKeyError extends JudgeError {
  override name = 'MissingKeyError'
  override readonly status = 503
  override readonly exitCode = 2
  constructor(judgment: string) {
    super(`judgment ${judgment}: the store lacks answers for this row and ENGINE_API_KEY is not set; nothing was asked`)
  }
}

/** Options of an EngineError beyond its message and the engine's status. */
export interface EngineErrorOptions {
  readonly cause?: unknown
  /**
   * Whether asking again later may succeed: by default true for 408, 429 and 5xx; the adapter
   * says so for a network error or a timeout, which have no status.
   */
  readonly transient?: boolean
  /** The wait the engine asked for (Retry-After), in milliseconds, or null. */
  readonly retryAfterMs?: number | null
}

/** The engine failed after its retries, or answered something unusable (502, exit 1). */
export class EngineError extends JudgeError {
  override name = 'EngineError'
  override readonly status: number = 502
  override readonly exitCode = 1
  /** The engine's HTTP status, or null for a network error, a timeout or a malformed answer. */
  readonly engineStatus: number | null
  readonly transient: boolean
  readonly retryAfterMs: number | null
  constructor(message: string, engineStatus: number | null, options: EngineErrorOptions = {}) {
    super(message, { cause: options.cause })
    this.engineStatus = engineStatus
    this.transient = options.transient ?? (engineStatus !== null && isTransientStatus(engineStatus))
    this.retryAfterMs = options.retryAfterMs ?? null
  }
}

/** Whether an HTTP status may succeed when asked again: 408, 429 and 5xx. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599)
}

/**
 * The engine is rate-limiting and the caller's patience is spent (a server request's short retry
 * budget): 503 with Retry-After, so that the caller knows when to come back.
 */
export class RateLimitedError extends EngineError {
  override name = 'RateLimitedError'
  override readonly status = 503
  /** Whole seconds to wait before asking again; at least 1. */
  readonly retryAfterS: number
  constructor(waitMs: number, reason: string, options: EngineErrorOptions = {}) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000))
    super(`the engine is rate-limiting requests (${reason}); try again in ${seconds} s`, 429, { ...options, transient: true, retryAfterMs: waitMs })
    this.retryAfterS = seconds
  }
}

/** The server's daily engine spend cap is reached; rows the store holds are still answered (503). */
export class DailyCapError extends JudgeError {
  override name = 'DailyCapError'
  override readonly status = 503
  override readonly exitCode = 2
  /** Whole seconds until the cap resets, at midnight UTC. */
  readonly retryAfterS: number
  constructor(spent: number, cap: number, retryAfterS: number) {
    super(
      `the server's daily engine spend cap of $${formatUsd(cap)} (JUDGE_SERVER_MAX_DAILY_COST) is reached: ` +
        `$${formatUsd(spent)} spent today (UTC); rows the store already holds are still answered, ` +
        'new rows wait until the cap resets at midnight UTC; nothing was asked',
    )
    this.retryAfterS = retryAfterS
  }
}
