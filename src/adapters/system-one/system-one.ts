import { EngineError } from '../../errors.ts'
import type { Engine, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { cancelled, failureError, postOnce, type HttpFailure, type HttpTarget } from '../engine-http.ts'
import { retry, sleep, type Retried, type RetryPolicy } from './retry.ts'
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

interface Config extends RetryPolicy, HttpTarget {
  readonly apiKey: string
}

type Failure = HttpFailure

/** The engine port over TypeSafe's System One API: one request per row carries every question. */
export function createSystemOne(options: SystemOneOptions): Engine {
  if (!options.apiKey) throw new TypeError('createSystemOne: apiKey is required')
  const config: Config = {
    apiKey: options.apiKey,
    endpoint: `${(options.url ?? SYSTEM_ONE_DEFAULT_URL).replace(/\/+$/, '')}/v1/systemone`,
    headers: { authorization: `Bearer ${options.apiKey}` },
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
    outcome = await retry(() => postOnce(config, body, signal), config, signal)
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

/** The final error; the key is scrubbed because an engine may echo what it was sent. */
function engineError(config: Config, failure: Failure): EngineError {
  return failureError(failure, config.apiKey)
}
