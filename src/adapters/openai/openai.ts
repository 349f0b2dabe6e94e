import type { Distribution } from '../../core/types.ts'
import type { AnswerFacts, Engine, EngineEstimate, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { cancelled, failureError, postOnce, type HttpTarget } from '../engine-http.ts'
import { fetchModelList } from '../model-list.ts'
import { estimatePromptTokens, parseChatResponse, toChatRequest, type ChatAnswer } from './openai-wire.ts'

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
}

/**
 * The engine port over an OpenAI-compatible chat completions API with log probabilities (vLLM,
 * llama.cpp's server, Ollama, hosted APIs of that shape): one request per question, each allowed
 * one token, whose top alternatives give the distribution over the labels (docs/engine.md). The
 * questions of a row are asked at once; one failing cancels the others. Each request is tried once:
 * retries and pacing are the core's.
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
  if (signal?.aborted) throw failureError(cancelled(signal), apiKey)
  // The first failure cancels the requests of the other questions: their answers would be lost
  // anyway. The group follows the caller's signal through a listener removed when the row is done
  // (AbortSignal.any would leave the caller's long-lived signal a reference per row).
  const group = new AbortController()
  const follow = () => group.abort(signal!.reason)
  signal?.addEventListener('abort', follow, { once: true })
  const asking = request.questions.map(async (question) => {
    const chat = toChatRequest(request.model, request.state, question)
    const outcome = await postOnce(target, JSON.stringify(chat), group.signal)
    if (!outcome.ok) throw failureError(signal?.aborted ? cancelled(signal) : outcome.failure, apiKey)
    return { answer: parseChatResponse(outcome.value, question), estimated: estimatePromptTokens(chat) }
  })
  try {
    // The first rejection is the error thrown; the others' are the abort's echo.
    const answers = await Promise.all(
      asking.map((p) =>
        p.catch((error: unknown) => {
          group.abort()
          throw error
        }),
      ),
    )
    return result(request, answers)
  } finally {
    signal?.removeEventListener('abort', follow)
  }
}

function result(request: EngineRequest, answers: readonly { answer: ChatAnswer; estimated: number }[]): EngineResult {
  const distributions: Record<string, Distribution> = {}
  const facts: Record<string, AnswerFacts> = {}
  request.questions.forEach((q, i) => {
    distributions[q.name] = answers[i].answer.distribution
    const optionMass = answers[i].answer.optionMass
    if (optionMass !== null) facts[q.name] = { optionMass }
  })
  // A server that reports no usage is counted at the estimate, so that spend is never silently 0.
  const inputTokens = answers.reduce((sum, a) => sum + (a.answer.promptTokens ?? a.estimated), 0)
  const outputTokens = answers.reduce((sum, a) => sum + (a.answer.completionTokens ?? 1), 0)
  const model = answers.find((a) => a.answer.model !== null)?.answer.model ?? request.model
  return {
    model,
    distributions,
    inputTokens,
    outputTokens,
    requests: answers.length,
    ...(Object.keys(facts).length > 0 ? { facts } : {}),
  }
}
