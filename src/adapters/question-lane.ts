import type { Question, State } from '../core/types.ts'
import type { Engine, EngineEstimate, EngineRequest, EngineResult } from '../ports/engine.ts'
import { askEach } from './ask-each.ts'
import type { HttpTarget } from './engine-http.ts'
import { chatResult } from './openai/openai-result.ts'
import type { ChatAnswer } from './openai/openai-wire.ts'

/** How a chat engine writes one question's request body, estimates its input tokens and reads its answer. */
export interface QuestionWire<B> {
  request(model: string, state: State, question: Question): B
  estimate(body: B): number
  parse(text: string, question: Question): ChatAnswer
  /** Reads an answer already parsed, as a batch's result holds it. */
  read(body: Record<string, unknown>, question: Question): ChatAnswer
}

/** What the per-question lane's target takes from an engine's options. */
export interface TargetOptions {
  readonly fetch?: typeof fetch
  /** Limit per request, in milliseconds; default 30 s. */
  readonly timeoutMs?: number
  /** The most of an answer read, in bytes (ENGINE_MAX_RESPONSE_BYTES); default 4 MiB. */
  readonly maxResponseBytes?: number
}

/** An engine's target: its endpoint and headers, the options' fetch, time limit and cap, the key kept out of ids. */
export function engineTarget(
  options: TargetOptions,
  apiKey: string | null,
  fixed: Pick<HttpTarget, 'endpoint' | 'headers' | 'requestIdHeader'>,
): HttpTarget {
  return {
    ...fixed,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 30_000,
    secrets: [apiKey],
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  }
}

/**
 * The port's `ask` and `estimate` over one request per question: the questions of a row asked at
 * once (askEach), one failing cancels the others, each answer read as `wire` says; the input tokens
 * of each from its prompt's length.
 */
export function questionLane<B>(
  target: HttpTarget,
  apiKey: string | null,
  wire: QuestionWire<B>,
): Required<Pick<Engine, 'ask' | 'estimate'>> {
  return {
    ask: (request, signal) => ask(target, apiKey, wire, request, signal),
    estimate: (request) => estimate(wire, request),
  }
}

function estimate<B>(wire: QuestionWire<B>, request: EngineRequest): EngineEstimate {
  const inputTokens = request.questions.reduce(
    (sum, q) => sum + wire.estimate(wire.request(request.model, request.state, q)),
    0,
  )
  return { inputTokens, requests: request.questions.length }
}

async function ask<B>(
  target: HttpTarget,
  apiKey: string | null,
  wire: QuestionWire<B>,
  request: EngineRequest,
  signal?: AbortSignal,
): Promise<EngineResult> {
  const answers = await askEach(
    target,
    apiKey,
    request.questions,
    (question) => {
      const body = wire.request(request.model, request.state, question)
      const estimated = wire.estimate(body)
      return { body: JSON.stringify(body), read: (text) => ({ answer: wire.parse(text, question), estimated }) }
    },
    signal,
  )
  return chatResult(request, answers)
}
