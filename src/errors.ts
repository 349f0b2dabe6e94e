import { formatUsd } from './format.ts'

/** What any error may carry beside its message: the error it wraps, and facts about where it arose. */
export interface ErrorOptions {
  readonly cause?: unknown
  /** Machine-readable facts (a judgment, a file, a count); never a secret. */
  readonly context?: Readonly<Record<string, unknown>>
}

/**
 * The error hierarchy. Every error the product raises on purpose is a JudgeError: it carries the
 * HTTP status the server answers with and the exit status the CLI ends with, a literal `name`, its
 * `context` and `cause`, and a message that says what went wrong and where. Messages never
 * contain secrets.
 */
export class JudgeError extends Error {
  override readonly name: string = 'JudgeError'
  /** HTTP status for the server. */
  readonly status: number = 500
  /** Exit status for the CLI. */
  readonly exitCode: number = 1
  readonly context: Readonly<Record<string, unknown>>
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.context = options.context ?? {}
  }
}

/** Wrong arguments or request shape (400, exit 2). */
export class UsageError extends JudgeError {
  override readonly name = 'UsageError' as const
  override readonly status = 400
  override readonly exitCode = 2
}

/**
 * A folder of several judgments where one must be named (400, exit 2). The way to name one differs
 * by surface (the `node` field, the `--node` flag), so the message is completed where it is shown.
 */
export class NodeNeededError extends JudgeError {
  override readonly name = 'NodeNeededError' as const
  override readonly status = 400
  override readonly exitCode = 2
  /** What makes a judgment necessary, without the way to name it. */
  readonly problem: string
  constructor(problem: string, context: Readonly<Record<string, unknown>> = {}) {
    super(`${problem}; name one with node`, { context: { problem, ...context } })
    this.problem = problem
  }
}

/** Missing or wrong server token (401). */
export class UnauthorizedError extends JudgeError {
  override readonly name = 'UnauthorizedError' as const
  override readonly status = 401
  override readonly exitCode = 2
}

/** A path that leaves the served folder (403). */
export class ForbiddenError extends JudgeError {
  override readonly name = 'ForbiddenError' as const
  override readonly status = 403
  override readonly exitCode = 2
}

/** A path or route that does not exist (404). */
export class NotFoundError extends JudgeError {
  override readonly name = 'NotFoundError' as const
  override readonly status = 404
  override readonly exitCode = 2
}

/** A known route asked with the wrong method (405). */
export class MethodNotAllowedError extends JudgeError {
  override readonly name = 'MethodNotAllowedError' as const
  override readonly status = 405
  override readonly exitCode = 2
  readonly allow: readonly string[]
  constructor(message: string, allow: readonly string[]) {
    super(message, { context: { allow } })
    this.allow = allow
  }
}

/** A verdict for a row the queue does not offer as that kind (409). */
export class ConflictError extends JudgeError {
  override readonly name = 'ConflictError' as const
  override readonly status = 409
  override readonly exitCode = 2
}

/** A request body over the limit (413), or a slow one cut off (408 is not in the interface). */
export class PayloadTooLargeError extends JudgeError {
  override readonly name = 'PayloadTooLargeError' as const
  override readonly status = 413
  override readonly exitCode = 2
}

/** A spec file that does not load: names the file, the key path and the problem (422, exit 2). */
export class SpecError extends JudgeError {
  override readonly name = 'SpecError' as const
  override readonly status = 422
  override readonly exitCode = 2
  readonly file: string
  readonly keyPath: string
  constructor(file: string, keyPath: string, problem: string, options: ErrorOptions = {}) {
    super(keyPath ? `${file}: ${keyPath}: ${problem}` : `${file}: ${problem}`, {
      ...options,
      context: { file, keyPath, ...options.context },
    })
    this.file = file
    this.keyPath = keyPath
  }
}

/** Input that cannot be judged: a row lacking a state column, a path that is not a spec (422, exit 2). */
export class InputError extends JudgeError {
  override readonly name = 'InputError' as const
  override readonly status = 422
  override readonly exitCode = 2
}

/** The cost cap refused to ask; nothing was asked (422, exit 2). The context may carry the plans. */
export class CostCapError extends JudgeError {
  override readonly name = 'CostCapError' as const
  override readonly status = 422
  override readonly exitCode = 2
  readonly judgment: string
  readonly estimate: number
  readonly cap: number
  constructor(
    judgment: string,
    answers: number,
    requests: number,
    estimate: number,
    cap: number,
    context: Readonly<Record<string, unknown>> = {},
  ) {
    super(
      `judgment ${judgment}: asking ${answers} answer${answers === 1 ? '' : 's'} in ${requests} ` +
        `request${requests === 1 ? '' : 's'} would cost an estimated $${formatUsd(estimate)}, ` +
        `above the cap of $${formatUsd(cap)}; nothing was asked`,
      { context: { judgment, answers, requests, estimate, cap, ...context } },
    )
    this.judgment = judgment
    this.estimate = estimate
    this.cap = cap
  }
}

/** The server cannot listen where it was told: the port is taken or not allowed (exit 2). */
export class ListenError extends JudgeError {
  override readonly name = 'ListenError' as const
  override readonly exitCode = 2
}

/** A row must be asked and ENGINE_API_KEY is unset; nothing was asked (503, exit 2). */
export class MissingKeyError extends JudgeError {
  override readonly name = 'MissingKeyError' as const
  override readonly status = 503
  override readonly exitCode = 2
  /** `setting` names what is unset: ENGINE_API_KEY, or a juror's engine's own setting. */
  constructor(judgment: string, setting = 'ENGINE_API_KEY') {
    super(`judgment ${judgment}: the store lacks answers for this row and ${setting} is not set; nothing was asked`, {
      context: { judgment },
    })
  }
}

/** The engine failed after its retries, or answered something unusable (502, exit 1). */
export class EngineError extends JudgeError {
  override readonly name: string = 'EngineError'
  override readonly status: number = 502
  /** The engine's HTTP status, or null for a network error, a timeout or a malformed answer. */
  readonly engineStatus: number | null
  /**
   * Whether asking again may help (engine-http.ts), the wait asked for (ms), the engine's id of the request
   * (`x-typesafe-request-id`).
   */
  readonly transient: boolean
  readonly retryAfterMs: number | null
  readonly requestId: string | null
  constructor(
    message: string,
    engineStatus: number | null,
    options: ErrorOptions & { transient?: boolean; retryAfterMs?: number | null; requestId?: string | null } = {},
  ) {
    super(message, {
      ...options,
      context: { engineStatus, ...(options.requestId ? { requestId: options.requestId } : {}), ...options.context },
    })
    ;[this.engineStatus, this.transient] = [engineStatus, options.transient ?? false]
    ;[this.retryAfterMs, this.requestId] = [options.retryAfterMs ?? null, options.requestId ?? null]
  }
}

/** Asking must wait `retryAfterS` seconds (503 with Retry-After): the engine's rate limit, the server's daily cap. */
export class RetryLaterError extends JudgeError {
  override readonly name = 'RetryLaterError' as const
  override readonly status = 503
  readonly retryAfterS: number
  constructor(message: string, retryAfterS: number, options: ErrorOptions = {}) {
    super(message, { ...options, context: { retryAfterS, ...options.context } })
    this.retryAfterS = retryAfterS
  }
}

/** The server is shutting down and takes no new requests (503). */
export class ShuttingDownError extends JudgeError {
  override readonly name = 'ShuttingDownError' as const
  override readonly status = 503
  override readonly exitCode = 1
}

/**
 * A failure whose details belong in the server log only: the caller is told to see the log (500),
 * the log gets the message and the cause. (A store in trouble is a StoreError: src/store-error.ts.)
 */
export class InternalError extends JudgeError {
  override readonly name = 'InternalError' as const
  override readonly status = 500
  override readonly exitCode = 1
}
