import { EngineError } from '../../errors.ts'
import type { Engine, EngineRequest, EngineResult } from '../../ports/engine.ts'
import {
  isRetryableStatus, parseRetryAfter, retry, sleep, type Attempt, type Retried, type RetryPolicy,
} from './retry.ts'
import { parseWireResponse, toWireRequest } from './system-one-wire.ts'

/**
 * The model asked when neither a spec nor ENGINE_MODEL names one. A pinned Jev build rather than
 * the moving `jev-latest` alias, so that cached answers stay tied to the model that gave them.
 */
export const SYSTEM_ONE_DEFAULT_MODEL = 'jev-1.13.0'

/** Where TypeSafe serves the System One API. */
export const SYSTEM_ONE_DEFAULT_URL = 'https://api.typesafe.ai'

/** Options of the System One adapter; everything but the key has a default. */
export interface SystemOneOptions {
  readonly apiKey: string
  /** API root; the adapter posts to `{url}/v1/systemone`. */
  readonly url?: string
  readonly fetch?: typeof fetch
  /** Limit per attempt, in milliseconds. */
  readonly timeoutMs?: number
  /** Attempts after the first, for 408, 429, 5xx, network errors and timeouts. */
  readonly retries?: number
  readonly minDelayMs?: number
  readonly maxDelayMs?: number
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  readonly random?: () => number
  readonly defaultModel?: string
}

interface Config extends RetryPolicy {
  readonly apiKey: string
  readonly endpoint: string
  readonly fetch: typeof fetch
  readonly timeoutMs: number
}

/** Why an attempt failed, in words fit for the final error. */
interface Failure {
  readonly status: number | null
  readonly message: string
  readonly cause?: unknown
  /** Whether asking again later may help: a retryable status, a network error, a timeout. */
  readonly transient?: boolean
  readonly retryAfterMs?: number | null
}

/** The engine port over TypeSafe's System One API: one request per row carries every question. */
export function createSystemOne(options: SystemOneOptions): Engine {
  if (!options.apiKey) throw new TypeError('createSystemOne: apiKey is required')
  const config: Config = {
    apiKey: options.apiKey,
    endpoint: `${(options.url ?? SYSTEM_ONE_DEFAULT_URL).replace(/\/+$/, '')}/v1/systemone`,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries ?? 2,
    minDelayMs: options.minDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 5_000,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
  }
  return {
    defaultModel: options.defaultModel ?? SYSTEM_ONE_DEFAULT_MODEL,
    ask: (request, signal) => ask(config, request, signal),
  }
}

async function ask(config: Config, request: EngineRequest, signal?: AbortSignal): Promise<EngineResult> {
  const body = JSON.stringify(toWireRequest(request))
  let outcome: Retried<string, Failure>
  try {
    outcome = await retry(() => attempt(config, body, signal), config, signal)
  } catch (error) {
    // Only the sleep between attempts throws: the caller gave up while we waited.
    if (signal?.aborted) throw engineError(config, cancelled(signal))
    throw error
  }
  if (!outcome.ok) {
    const after = outcome.attempts > 1 ? ` (after ${outcome.attempts} attempts)` : ''
    throw engineError(config, { ...outcome.failure, message: outcome.failure.message + after })
  }
  try {
    return parseWireResponse(outcome.value, request.questions)
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    throw engineError(config, { status: error.engineStatus, message: error.message, cause: error.cause })
  }
}

async function attempt(config: Config, body: string, signal?: AbortSignal): Promise<Attempt<string, Failure>> {
  const timeout = AbortSignal.timeout(config.timeoutMs)
  try {
    const response = await config.fetch(config.endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      // A redirect would carry the key to another host; report it instead of following it.
      redirect: 'manual',
    })
    const text = await response.text()
    if (response.ok) return { ok: true, value: text }
    const message = `engine answered ${response.status}: ${engineMessage(text, response.statusText)}`
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'))
    const retryable = isRetryableStatus(response.status)
    return { ok: false, failure: { status: response.status, message, transient: retryable, retryAfterMs }, retryable, retryAfterMs }
  } catch (error) {
    if (signal?.aborted) return { ok: false, failure: cancelled(signal), retryable: false, retryAfterMs: null }
    const message = timeout.aborted
      ? `the engine did not answer within ${config.timeoutMs} ms`
      : `could not reach the engine at ${config.endpoint}: ${networkReason(error)}`
    return { ok: false, failure: { status: null, message, cause: error, transient: true }, retryable: true, retryAfterMs: null }
  }
}

function cancelled(signal: AbortSignal): Failure {
  return { status: null, message: 'the engine request was cancelled', cause: signal.reason }
}

/** The final error; the key is scrubbed because an engine may echo what it was sent. */
function engineError(config: Config, failure: Failure): EngineError {
  const message = failure.message.replaceAll(config.apiKey, '[redacted]')
  return new EngineError(message, failure.status, { cause: failure.cause, transient: failure.transient ?? false, retryAfterMs: failure.retryAfterMs ?? null })
}

/**
 * The engine's own words for an error. The API answers `{"detail": {"error_type", "message"}}`,
 * and `{"detail": [{"loc", "msg"}]}` when it rejects the request's shape; a proxy in front of it
 * may answer anything, so other bodies are shown as a short snippet.
 */
function engineMessage(text: string, statusText: string): string {
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
