import type { Engine, EngineEstimate, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { askEach } from '../ask-each.ts'
import type { HttpTarget } from '../engine-http.ts'
import { fetchModelList } from '../model-list.ts'
import { createOpenAiBatch, type OpenAiBatchOptions } from './openai-batch.ts'
import { chatResult } from './openai-result.ts'
import { estimatePromptTokens, parseChatResponse, toChatRequest } from './openai-wire.ts'

/** Options of the OpenAI-compatible adapter. */
export interface OpenAiOptions {
  /** API root including its version, e.g. http://127.0.0.1:8000/v1; the adapter posts to `{url}/chat/completions`. */
  readonly url: string
  /** The model asked when a spec names none: the name the server serves. */
  readonly model: string
  /** Sent as `Authorization: Bearer …` when given; local servers need none. */
  readonly apiKey?: string | null
  readonly fetch?: typeof fetch
  /** Limit per request, in milliseconds. */
  readonly timeoutMs?: number
  /** The most of an answer read, in bytes (ENGINE_MAX_RESPONSE_BYTES); default 4 MiB. */
  readonly maxResponseBytes?: number
  /** The bulk lane's limits and time limit of transfers; OpenAI's limits by default. */
  readonly batch?: OpenAiBatchOptions
}

/**
 * The engine port over an OpenAI-compatible chat completions API with log probabilities (vLLM,
 * llama.cpp's server, Ollama, hosted APIs of that shape): one request per question, each allowed
 * one token, whose top alternatives give the distribution over the labels (docs/engine.md). The
 * questions of a row are asked at once; one failing cancels the others. Each request is tried once:
 * retries and pacing are the core's. The same requests go in bulk through the provider's Batch API
 * (`batch`, openai-batch.ts).
 */
export function createOpenAi(options: OpenAiOptions): Engine {
  const apiKey = options.apiKey ?? null
  const root = options.url.replace(/\/+$/, '')
  const target: HttpTarget = {
    endpoint: `${root}/chat/completions`,
    headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    secrets: [apiKey],
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  }
  return {
    defaultModel: options.model,
    ask: (request, signal) => ask(target, apiKey, request, signal),
    estimate,
    // GET {url}/models: `{"data": [{"id", "created"}]}`.
    models: (signal) => fetchModelList(target, `${root}/models`, apiKey, signal),
    batch: createOpenAiBatch({ root, target, apiKey }, options.batch),
  }
}

/** One request per question; the input tokens of each from its prompt's length. */
function estimate(request: EngineRequest): EngineEstimate {
  const inputTokens = request.questions.reduce(
    (sum, q) => sum + estimatePromptTokens(toChatRequest(request.model, request.state, q)),
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
      const chat = toChatRequest(request.model, request.state, question)
      const estimated = estimatePromptTokens(chat)
      return { body: JSON.stringify(chat), read: (text) => ({ answer: parseChatResponse(text, question), estimated }) }
    },
    signal,
  )
  return chatResult(request, answers)
}
