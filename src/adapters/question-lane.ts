import type { Question, State } from '../core/types.ts'
import type { Engine, EngineEstimate, EngineRequest, EngineResult } from '../ports/engine.ts'
import { askEach } from './ask-each.ts'
import type { HttpTarget } from './engine-http.ts'
import { chatResult, type QuestionAnswer } from './openai/openai-result.ts'
import type { ChatAnswer } from './openai/openai-wire.ts'
import { pooled, samplesFor, type Sampling } from './sampled-answer.ts'

/** How a chat engine writes one question's request body, estimates its input tokens and reads its answer. */
export interface QuestionWire<B> {
  /** The request of one answer, at temperature 0 (with log probabilities where the wire asks them). */
  request(model: string, state: State, question: Question): B
  /** The request of one of k samples, at `temperature`, asking no log probabilities. */
  sample(model: string, state: State, question: Question, temperature: number): B
  estimate(body: B): number
  parse(text: string, question: Question): ChatAnswer
  /** Reads an answer already parsed, as a batch's result holds it. */
  read(body: Record<string, unknown>, question: Question): ChatAnswer
  /**
   * Whether `request` asks for log probabilities: a model whose answer carries none is then sampled. False for an
   * API that has none (Anthropic's): k > 1 is sampled from the start.
   */
  readonly logprobs: boolean
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
 * The port's `ask` and `estimate` over requests per question: the questions of a row asked at once
 * (askEach), one failing cancels the others, each answer read as `wire` says; the input tokens of
 * each from its prompt's length. A model that gives no log probabilities is asked k times per
 * question at the sampling temperature, p each label's share (sampled-answer.ts). The lane
 * remembers each model whose answer carried none, or that it was told of (`knownWithout`, only where the wire asks
 * log probabilities), and samples it directly from then on.
 */
export function questionLane<B>(
  target: HttpTarget,
  apiKey: string | null,
  wire: QuestionWire<B>,
  sampling: Sampling,
): Required<Pick<Engine, 'ask' | 'estimate'>> & Pick<Engine, 'knownWithout'> {
  const textOnly = new Set<string>()
  const lane: Lane<B> = {
    target,
    apiKey,
    wire,
    sampling,
    sampled: (request) => samplesFor(request, sampling) > 1 && (!wire.logprobs || textOnly.has(request.model)),
    learn: (model) => textOnly.add(model),
  }
  return {
    ask: (request, signal) => ask(lane, request, signal),
    estimate: (request) => estimate(lane, request),
    // A wire without log probabilities samples every model already: it has nothing to be told.
    ...(wire.logprobs ? { knownWithout: (model: string) => lane.learn(model) } : {}),
  }
}

/** A lane's parts, and what it knows of the models it asked. */
interface Lane<B> {
  readonly target: HttpTarget
  readonly apiKey: string | null
  readonly wire: QuestionWire<B>
  readonly sampling: Sampling
  /** Whether a request's questions are asked k times (k > 1, and its model gives no log probabilities). */
  sampled(request: EngineRequest): boolean
  /** Remembers a model whose answer carried no log probabilities. */
  learn(model: string): void
}

function estimate<B>({ wire, sampling, sampled }: Lane<B>, request: EngineRequest): EngineEstimate {
  const per = sampled(request) ? samplesFor(request, sampling) : 1
  const inputTokens = request.questions.reduce(
    (sum, q) => sum + wire.estimate(wire.request(request.model, request.state, q)),
    0,
  )
  return { inputTokens: per * inputTokens, requests: per * request.questions.length }
}

async function ask<B>(lane: Lane<B>, request: EngineRequest, signal?: AbortSignal): Promise<EngineResult> {
  if (lane.sampled(request)) {
    const samples = await sampleEach(lane, request, request.questions, signal)
    return chatResult(
      request,
      request.questions.map((q, i) => pooled(q, samples[i])),
    )
  }
  const { wire } = lane
  const answers = await askEach(
    lane.target,
    lane.apiKey,
    request.questions,
    (question) => call(wire, question, wire.request(request.model, request.state, question)),
    signal,
  )
  // An answer without log probabilities shows that its model gives none: sampled from now on, and now when k > 1.
  const bare = request.questions.filter((_, i) => wire.logprobs && answers[i].answer.optionMass === null)
  if (bare.length === 0) return chatResult(request, answers)
  lane.learn(request.model)
  if (!lane.sampled(request)) return chatResult(request, answers)
  const samples = await sampleEach(lane, request, bare, signal)
  return chatResult(
    request,
    request.questions.map((q, i) => {
      const at = bare.indexOf(q)
      return at < 0 ? answers[i] : pooled(q, samples[at], [answers[i]])
    }),
  )
}

/** Asks each of `questions` k times, all at once, at the sampling temperature: each question's k answers. */
async function sampleEach<B>(
  { target, apiKey, wire, sampling }: Lane<B>,
  request: EngineRequest,
  questions: readonly Question[],
  signal?: AbortSignal,
): Promise<QuestionAnswer[][]> {
  const k = samplesFor(request, sampling)
  const { model, state } = request
  const each = await askEach(
    target,
    apiKey,
    questions.flatMap((q) => Array.from({ length: k }, () => q)),
    (question) => call(wire, question, wire.sample(model, state, question, sampling.temperature)),
    signal,
  )
  return questions.map((_, i) => each.slice(i * k, (i + 1) * k))
}

/** One request of a question: its body posted, its answer read with the body's estimated tokens. */
function call<B>(wire: QuestionWire<B>, question: Question, body: B) {
  const estimated = wire.estimate(body)
  return {
    body: JSON.stringify(body),
    read: (text: string): QuestionAnswer => ({ answer: wire.parse(text, question), estimated }),
  }
}
