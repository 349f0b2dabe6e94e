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

/**
 * A folder of several judgments where one must be named (400, exit 2). The way to name one differs
 * by surface (the `node` field, the `--node` flag), so the message is completed where it is shown.
 */
export class NodeNeededError extends UsageError {
  override name = 'NodeNeededError'
  /** What makes a judgment necessary, without the way to name it. */
  readonly problem: string
  constructor(problem: string, how = 'node') {
    super(`${problem}; name one with ${how}`)
    this.problem = problem
  }
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

/** The server cannot listen where it was told: the port is taken or not allowed (exit 2). */
export class ListenError extends JudgeError {
  override name = 'ListenError'
  override readonly exitCode = 2
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

/** The engine failed after its retries, or answered something unusable (502, exit 1). */
export class EngineError extends JudgeError {
  override name = 'EngineError'
  override readonly status = 502
  override readonly exitCode = 1
  /** The engine's HTTP status, or null for a network error, a timeout or a malformed answer. */
  readonly engineStatus: number | null
  constructor(message: string, engineStatus: number | null, options?: { cause?: unknown }) {
    super(message, options)
    this.engineStatus = engineStatus
  }
}
