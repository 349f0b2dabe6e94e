import type { Engine, EngineEstimate, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { askEach } from '../ask-each.ts'
import type { HttpTarget } from '../engine-http.ts'
import { fetchModelList } from '../model-list.ts'
import { chatResult } from '../openai/openai-result.ts'
import { createAnthropicBatch, type AnthropicBatchOptions } from './anthropic-batch.ts'
import { ANTHROPIC_VERSION, estimateMessagesTokens, parseMessage, toMessagesRequest } from './anthropic-wire.ts'

/** Options of the Anthropic adapter. */
export interface AnthropicOptions {
  /** API root without its version, e.g. https://api.anthropic.com; the adapter posts to `{url}/v1/messages`. */
  readonly url: string
  /** The model asked when a spec names none. */
  readonly model: string
  /** Sent as `x-api-key`. */
  readonly apiKey?: string | null
  readonly fetch?: typeof fetch
  /** Limit per request, in milliseconds. */
  readonly timeoutMs?: number
  /** The most of an answer read, in bytes (ENGINE_MAX_RESPONSE_BYTES); default 4 MiB. */
  readonly maxResponseBytes?: number
  /** The bulk lane's limits and time limit of transfers; Anthropic's limits by default. */
  readonly batch?: AnthropicBatchOptions
}

/**
 * The engine port over Anthropic's Messages API (docs/engine.md, Anthropic): one request per
 * question, whose text names a label; there are no log probabilities, so that label gets
 * probability 1. The questions of a row are asked at once; one failing cancels the others. Each
 * request is tried once: retries and pacing are the core's. The same requests go in bulk through
 * Message Batches (`batch`, anthropic-batch.ts).
 */
export function createAnthropic(options: AnthropicOptions): Engine {
  const apiKey = options.apiKey ?? null
  const root = options.url.replace(/\/+$/, '')
  const target: HttpTarget = {
    endpoint: `${root}/v1/messages`,
    headers: { 'anthropic-version': ANTHROPIC_VERSION, ...(apiKey ? { 'x-api-key': apiKey } : {}) },
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    requestIdHeader: 'request-id',
    secrets: [apiKey],
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  }
  return {
    defaultModel: options.model,
    ask: (request, signal) => ask(target, apiKey, request, signal),
    estimate,
    // GET {url}/v1/models: `{"data": [{"id", "display_name", "created_at"}], "has_more"}`; 1,000 is a page's most.
    models: (signal) => fetchModelList(target, `${root}/v1/models?limit=1000`, apiKey, signal),
    batch: createAnthropicBatch({ root, target, apiKey }, options.batch),
  }
}

/** One request per question; the input tokens of each from its prompt's length. */
function estimate(request: EngineRequest): EngineEstimate {
  const inputTokens = request.questions.reduce(
    (sum, q) => sum + estimateMessagesTokens(toMessagesRequest(request.model, request.state, q)),
    0,
  )
  return { inputTokens, requests: request.questions.length }
}

async function ask(
  target: HttpTarget,
  apiKey: string | null,
  request: EngineRequest,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const answers = await askEach(
    target,
    apiKey,
    request.questions,
    (question) => {
      const body = toMessagesRequest(request.model, request.state, question)
      const estimated = estimateMessagesTokens(body)
      return { body: JSON.stringify(body), read: (text) => ({ answer: parseMessage(text, question), estimated }) }
    },
    signal,
  )
  return chatResult(request, answers)
}
