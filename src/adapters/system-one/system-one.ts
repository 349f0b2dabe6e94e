import { SYSTEM_ONE_DEFAULT_MODEL, SYSTEM_ONE_DEFAULT_URL } from '../../core/engine-kinds.ts'
import { EngineError } from '../../errors.ts'
import type { Engine, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { failureError, postOnce, type HttpTarget } from '../engine-http.ts'
import { fetchModelList } from '../model-list.ts'
import { parseWireResponse, toWireRequest } from './system-one-wire.ts'

export { SYSTEM_ONE_DEFAULT_MODEL, SYSTEM_ONE_DEFAULT_URL }

/** The header System One names every response with; kept on answers and in error messages. */
export const SYSTEM_ONE_REQUEST_ID = 'x-typesafe-request-id'

/** Options of the System One adapter; everything but the key has a default. */
export interface SystemOneOptions {
  readonly apiKey: string
  /** API root; the adapter posts to `{url}/v1/systemone`. */
  readonly url?: string
  readonly fetch?: typeof fetch
  /** Limit per request, in milliseconds. */
  readonly timeoutMs?: number
  /** The most of an answer read, in bytes (ENGINE_MAX_RESPONSE_BYTES); default 4 MiB. */
  readonly maxResponseBytes?: number
  readonly defaultModel?: string
}

/**
 * The engine port over TypeSafe's System One API: one request per row carries every question,
 * and GET /v1/models lists the models.
 * Each request is tried once: retries, waits and pacing are the core's (src/core/pacing/), as
 * for every engine.
 */
export function createSystemOne(options: SystemOneOptions): Engine {
  if (!options.apiKey) throw new TypeError('createSystemOne: apiKey is required')
  const root = (options.url ?? SYSTEM_ONE_DEFAULT_URL).replace(/\/+$/, '')
  const target: HttpTarget = {
    endpoint: `${root}/v1/systemone`,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    requestIdHeader: SYSTEM_ONE_REQUEST_ID,
    secrets: [options.apiKey],
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  }
  return {
    defaultModel: options.defaultModel ?? SYSTEM_ONE_DEFAULT_MODEL,
    ask: (request, signal) => ask(target, options.apiKey, request, signal),
    // GET /v1/models: `{"models": [{"name", "description", "release_date"}]}`.
    models: (signal) => fetchModelList(target, `${root}/v1/models`, options.apiKey, signal),
  }
}

async function ask(
  target: HttpTarget,
  apiKey: string,
  request: EngineRequest,
  signal?: AbortSignal,
): Promise<EngineResult> {
  // The key is scrubbed from every error: an engine may echo what it was sent.
  const outcome = await postOnce(target, JSON.stringify(toWireRequest(request)), signal)
  if (!outcome.ok) throw failureError(outcome.failure, apiKey)
  const requestId = outcome.requestId ?? null
  try {
    const result = parseWireResponse(outcome.value, request.questions)
    return requestId === null ? result : { ...result, requestId }
  } catch (error) {
    if (!(error instanceof EngineError)) throw error
    const message = requestId === null ? error.message : `${error.message} (request ${requestId})`
    throw failureError({ status: error.engineStatus, message, cause: error.cause, requestId }, apiKey)
  }
}
