import { DEFAULT_MAX_RESPONSE_BYTES } from '../core/engine-kinds.ts'
import { EngineError } from '../errors.ts'
import { readCapped, readLines, type BodyRead } from './engine-body.ts'
import { engineRequestId } from './engine-request-id.ts'

/** Where and how an engine adapter posts: the endpoint, its headers, fetch and the time limit. */
export interface HttpTarget {
  readonly endpoint: string
  readonly headers: Readonly<Record<string, string>>
  readonly fetch: typeof fetch
  /** Limit per attempt, in milliseconds. */
  readonly timeoutMs: number
  /** The response header naming each request (System One's `x-typesafe-request-id`), kept on answers and errors. */
  readonly requestIdHeader?: string
  /** The most of an answer read (ENGINE_MAX_RESPONSE_BYTES); default 4 MiB. */
  readonly maxResponseBytes?: number
  /** What an engine's request id may not hold (the key): such an id is dropped (engine-request-id.ts). */
  readonly secrets?: readonly (string | null)[]
}

/** Why an attempt failed, in words fit for the final error. */
export interface HttpFailure {
  readonly status: number | null
  readonly message: string
  readonly cause?: unknown
  /** Whether asking again later may help: a retryable status, a network error, a timeout. */
  readonly transient?: boolean
  readonly retryAfterMs?: number | null
  /** The engine's id of the request, from the target's requestIdHeader, when it sent one. */
  readonly requestId?: string | null
}

/** One post's outcome: the body's text (with the engine's request id when it sent one), or why it failed. */
export type Posted =
  | { readonly ok: true; readonly value: string; readonly requestId?: string }
  | { readonly ok: false; readonly failure: HttpFailure }

/**
 * Posts a JSON body once. A success is the body's text; a failure says why, whether asking again
 * may help and any wait the engine asked for. Never throws. Adapters post once: pacing, retries
 * and waits are the core's (src/core/pacing/).
 */
export function postOnce(target: HttpTarget, body: string, signal?: AbortSignal): Promise<Posted> {
  return sendOnce(
    target,
    target.endpoint,
    { method: 'POST', body, headers: { 'content-type': 'application/json' } },
    signal,
  )
}

/** Gets `url` once with the target's headers, fetch and time limit (a list of models); as postOnce, never throws. */
export function getOnce(target: HttpTarget, url: string, signal?: AbortSignal): Promise<Posted> {
  return sendOnce(target, url, { method: 'GET', headers: {} }, signal)
}

/**
 * Sends `method` to `url` once with the target's headers, fetch and time limit: a JSON body (a
 * string), a multipart form (FormData, its boundary set by fetch) or none; as postOnce, never throws.
 */
export function sendTo(
  target: HttpTarget,
  url: string,
  method: 'GET' | 'POST',
  body?: string | FormData,
  signal?: AbortSignal,
): Promise<Posted> {
  const headers: Record<string, string> = typeof body === 'string' ? { 'content-type': 'application/json' } : {}
  return sendOnce(target, url, { method, headers, ...(body === undefined ? {} : { body }) }, signal)
}

/**
 * Gets `url` once and gives each line of a successful body to `onLine` as it arrives, never
 * holding more than one line, each at most the answer cap (a provider's JSONL file); the outcome's
 * value is empty. A failure reads and says as sendOnce's; never throws.
 */
export function streamLines(
  target: HttpTarget,
  url: string,
  onLine: (line: string) => void,
  signal?: AbortSignal,
): Promise<Posted> {
  return sendOnce(target, url, { method: 'GET', headers: {} }, signal, (response, cap, stop) =>
    readLines(response, cap, stop, onLine),
  )
}

async function sendOnce(
  target: HttpTarget,
  url: string,
  init: { method: string; body?: string | FormData; headers: Record<string, string> },
  signal?: AbortSignal,
  readOk: typeof readCapped = readCapped,
): Promise<Posted> {
  const limit = timeLimit(target.timeoutMs, signal)
  try {
    const response = await target.fetch(url, {
      ...init,
      headers: { ...init.headers, accept: 'application/json', ...target.headers },
      signal: limit.signal,
      // A redirect would carry the key to another host; report it instead of following it.
      redirect: 'manual',
    })
    const read = await (response.ok ? readOk : readCapped)(
      response,
      target.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      limit.stop,
    )
    const requestId = target.requestIdHeader
      ? engineRequestId(response.headers.get(target.requestIdHeader), target.secrets ?? [])
      : null
    return outcomeOf(response, read, requestId)
  } catch (error) {
    if (signal?.aborted) return { ok: false, failure: cancelled(signal) }
    const message = limit.expired()
      ? `the engine did not answer within ${target.timeoutMs} ms`
      : `could not reach the engine at ${url}: ${networkReason(error)}`
    return { ok: false, failure: { status: null, message, cause: error, transient: true } }
  } finally {
    limit.end()
  }
}

/** A response read (or not, over the cap) as a post's outcome, carrying the engine's id of the request when kept. */
function outcomeOf(response: Response, read: BodyRead, requestId: string | null): Posted {
  const id = requestId ? { requestId } : {}
  if (response.ok && read.ok) return { ok: true, value: read.text, ...id }
  const named = (words: string) => (requestId ? `${words} (request ${requestId})` : words)
  // An answer over the cap is unusable, as one that does not parse: asking again would get the same.
  if (!read.ok && response.ok) return { ok: false, failure: { status: null, message: named(read.message), ...id } }
  const words = read.ok ? engineMessage(read.text, response.statusText) : read.message
  // The official SDK prefers retry-after-ms, which is finer than Retry-After (docs/engine.md).
  const retryAfterMs =
    parseRetryAfterMs(response.headers.get('retry-after-ms')) ?? parseRetryAfter(response.headers.get('retry-after'))
  const failure = {
    status: response.status,
    message: named(`engine answered ${response.status}: ${words}`),
    transient: isRetryableStatus(response.status),
    retryAfterMs,
  }
  return { ok: false, failure: { ...failure, ...id } }
}

/**
 * A signal that aborts when `signal` does or after `ms`, whose timer and listener end with the
 * attempt: AbortSignal.timeout and AbortSignal.any would keep a timer, a signal and a weak
 * reference per request alive for the whole time limit after the answer came. Its timer does not
 * keep the process alive; `stop` aborts the request at once (an answer too large to read).
 */
export function timeLimit(
  ms: number,
  signal?: AbortSignal,
): { signal: AbortSignal; expired(): boolean; stop(): void; end(): void } {
  const controller = new AbortController()
  let expired = false
  const timer = setTimeout(() => {
    expired = true
    controller.abort(new DOMException(`the time limit of ${ms} ms passed`, 'TimeoutError'))
  }, ms)
  timer.unref()
  const follow = () => controller.abort(signal!.reason)
  if (signal?.aborted) follow()
  else signal?.addEventListener('abort', follow, { once: true })
  return {
    signal: controller.signal,
    expired: () => expired,
    stop: () => controller.abort(new DOMException('the answer was over the size read', 'AbortError')),
    end() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', follow)
    },
  }
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

/** A `retry-after-ms` header as milliseconds: a non-negative number; null when absent or unreadable. */
export function parseRetryAfterMs(value: string | null): number | null {
  const text = value?.trim() ?? ''
  return /^\d+(\.\d+)?$/.test(text) ? Math.round(Number(text)) : null
}

/** The failure of a request its caller cancelled. */
export function cancelled(signal: AbortSignal): HttpFailure {
  return { status: null, message: 'the engine request was cancelled', cause: signal.reason }
}

/** A failure as the EngineError the port rejects with; `secret` (the key) is scrubbed, since an engine may echo it. */
export function failureError(failure: HttpFailure, secret: string | null): EngineError {
  const message = secret ? failure.message.replaceAll(secret, '[redacted]') : failure.message
  return new EngineError(message, failure.status, {
    cause: failure.cause,
    transient: failure.transient ?? false,
    retryAfterMs: failure.retryAfterMs ?? null,
    requestId: failure.requestId ?? null,
  })
}

/**
 * The engine's own words for an error. System One answers `{"detail": {"error_type", "message"}}`,
 * and `{"detail": [{"loc", "msg"}]}` when it rejects the request's shape; a proxy in front of it
 * may answer anything, so other bodies are shown as a short snippet.
 */
export function engineMessage(text: string, statusText: string): string {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return snippet(text) || statusText || 'no message'
  }
  const detail = field(body, 'detail') ?? field(body, 'error') ?? body
  if (typeof detail === 'string' && detail !== '') return detail
  if (Array.isArray(detail) && detail.length > 0) return detail.map(validationMessage).join('; ')
  const message = field(detail, 'message') ?? field(detail, 'error_type')
  if (typeof message === 'string' && message !== '') return message
  return snippet(text) || statusText || 'no message'
}

function validationMessage(item: unknown): string {
  const loc = field(item, 'loc')
  const msg = field(item, 'msg')
  const where = Array.isArray(loc) ? `${loc.join('.')}: ` : ''
  return typeof msg === 'string' ? where + msg : snippet(JSON.stringify(item))
}

function networkReason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const code = field(cause, 'code')
  const message = cause instanceof Error ? cause.message : String(cause)
  if (typeof code === 'string' && !message.includes(code)) return message ? `${code}: ${message}` : code
  return message || 'network error'
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat
}
