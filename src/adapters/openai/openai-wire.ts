import type { Distribution, Question, State } from '../../core/types.ts'
import type { EngineError } from '../../errors.ts'
import { isRecord, jsonObject, shown, unusable, wholeCount } from '../engine-answer.ts'
import { estimateMessageTokens, LABEL_SYSTEM, labelPrompt } from '../label-prompt.ts'

/** Top tokens asked for: the most OpenAI, vLLM (--max-logprobs), llama.cpp and Ollama all give. */
export const TOP_LOGPROBS = 20

/** One chat message. */
export interface ChatMessage {
  readonly role: 'system' | 'user'
  readonly content: string
}

/**
 * The body of `POST {ENGINE_URL}/chat/completions` for one question: asked at temperature 0 with the first token's log
 * probabilities, or, for one of k samples, at a temperature above 0 without them.
 */
export interface ChatRequest {
  readonly model: string
  readonly messages: readonly ChatMessage[]
  readonly max_tokens: 1
  readonly temperature: number
  readonly logprobs?: true
  readonly top_logprobs?: number
}

/**
 * The request for one question: the data as JSON, the question, its labels with their
 * descriptions, and room for one token, whose top alternatives give the distribution.
 */
export function toChatRequest(model: string, state: State, question: Question): ChatRequest {
  return { ...toChatSample(model, state, question, 0), logprobs: true, top_logprobs: TOP_LOGPROBS }
}

/**
 * One of k samples of a question (a model that gives no log probabilities): the same messages and room for one
 * token, at `temperature`, asking no log probabilities.
 */
export function toChatSample(model: string, state: State, question: Question, temperature: number): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: LABEL_SYSTEM },
      { role: 'user', content: labelPrompt(state, question) },
    ],
    max_tokens: 1,
    temperature,
  }
}

/**
 * Input tokens of one question's request, estimated before asking: a quarter of the characters
 * of its messages, plus 8 per message for the chat template's markers.
 */
export function estimatePromptTokens(request: ChatRequest): number {
  return estimateMessageTokens(request.messages.map((m) => m.content))
}

/** One question's answer as read from a completion. */
export interface ChatAnswer {
  readonly model: string | null
  readonly distribution: Distribution
  /** The probability mass of the listed tokens that begin a label; null without log probabilities. */
  readonly optionMass: number | null
  /** What gave the distribution: the listed tokens' log probabilities, or the text alone (its label gets 1). */
  readonly source: 'logprobs' | 'text'
  /** null when the server reported no usage. */
  readonly promptTokens: number | null
  readonly completionTokens: number | null
}

/** Reads a completion: the distribution over the question's labels, the model, the usage. */
export function parseChatResponse(text: string, question: Question): ChatAnswer {
  return readChatResponse(jsonObject(text), question)
}

/**
 * A chat completion per question: its request, estimate and answer, for the per-request lane and
 * the batch's output lines alike. A QuestionWire (question-lane.ts), left untyped here since that
 * file imports this one.
 */
export const CHAT = {
  request: toChatRequest,
  sample: toChatSample,
  estimate: estimatePromptTokens,
  parse: parseChatResponse,
  read: readChatResponse,
  logprobs: true,
}

/**
 * Reads a completion already parsed (a line of a batch's output file holds it as `response.body`): as
 * parseChatResponse.
 */
export function readChatResponse(body: Record<string, unknown>, question: Question): ChatAnswer {
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined
  if (!isRecord(choice)) throw unusableFor(question, `field "choices" is ${shown(body.choices)}`)
  const usage = isRecord(body.usage) ? body.usage : {}
  const top = topTokens(choice)
  const { distribution, source } = labelChoice(question, top, contentOf(choice))
  return {
    model: typeof body.model === 'string' && body.model !== '' ? body.model : null,
    distribution,
    optionMass: top.length === 0 ? null : labelMass(question, top),
    source,
    promptTokens: wholeCount(usage.prompt_tokens),
    completionTokens: wholeCount(usage.completion_tokens),
  }
}

/** A candidate first token and its log probability. */
export interface TopToken {
  readonly token: string
  readonly logprob: number
}

/**
 * The distribution over a question's labels from the first token's top alternatives (see
 * docs/engine.md). A token counts for each label it begins, compared without case, leading
 * space or underscores; a token that begins several labels is shared between them evenly.
 * Labels no listed token begins get 0. When no listed token begins any label, or the server
 * sent no log probabilities, the answer's text decides: the label it begins gets 1.
 */
export function labelDistribution(question: Question, top: readonly TopToken[], content: string | null): Distribution {
  return labelChoice(question, top, content).distribution
}

/** labelDistribution, saying what decided it: the listed tokens (`logprobs`) or the answer's text (`text`). */
export function labelChoice(
  question: Question,
  top: readonly TopToken[],
  content: string | null,
): { readonly distribution: Distribution; readonly source: 'logprobs' | 'text' } {
  const labels = question.labels.map(normal)
  const mass = labels.map(() => 0)
  for (const { token, logprob } of top) {
    const t = normal(token)
    const begun = t === '' ? [] : labels.flatMap((label, i) => (label.startsWith(t) ? [i] : []))
    for (const i of begun) mass[i] += Math.exp(logprob) / begun.length
  }
  let total = mass.reduce((a, b) => a + b, 0)
  const source = total === 0 ? 'text' : 'logprobs'
  if (total === 0 && content !== null) {
    const t = normal(content)
    labels.forEach((label, i) => (mass[i] = t !== '' && label.startsWith(t) ? 1 : 0))
    total = mass.reduce((a, b) => a + b, 0)
  }
  if (total === 0) {
    const said = content === null ? 'the answer has no text' : `the model answered ${shown(content)}`
    throw unusableFor(question, `${said}, which begins none of the labels ${question.labels.join(', ')}`)
  }
  const distribution = Object.fromEntries(
    question.labels.map((label, i) => [label, Math.round((mass[i] / total) * 1e6) / 1e6]),
  )
  return { distribution, source }
}

/**
 * System One's `option_mass` for a local model: the probability of the listed first tokens that
 * begin any of the question's labels, each token once, whatever share of it went to which label.
 * Tokens below the listed alternatives are not seen, so this is the mass on the labels' first
 * tokens among the top ones; 0 when none of them begins a label.
 */
export function labelMass(question: Question, top: readonly TopToken[]): number {
  const labels = question.labels.map(normal)
  let mass = 0
  for (const { token, logprob } of top) {
    const t = normal(token)
    if (t !== '' && labels.some((label) => label.startsWith(t))) mass += Math.exp(logprob)
  }
  return Math.min(1, Math.round(mass * 1e4) / 1e4)
}

function normal(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/^[\s\u2581\u0120]+/, '')
    .replace(/\s+$/, '')
    .replace(/_/g, ' ')
    .toLowerCase()
}

function topTokens(choice: Record<string, unknown>): TopToken[] {
  const logprobs = isRecord(choice.logprobs) ? choice.logprobs : null
  const first = Array.isArray(logprobs?.content) ? logprobs.content[0] : undefined
  if (!isRecord(first)) return []
  const listed = Array.isArray(first.top_logprobs) && first.top_logprobs.length > 0 ? first.top_logprobs : [first]
  return listed.filter(
    (t): t is TopToken =>
      isRecord(t) && typeof t.token === 'string' && typeof t.logprob === 'number' && Number.isFinite(t.logprob),
  )
}

function contentOf(choice: Record<string, unknown>): string | null {
  const message = isRecord(choice.message) ? choice.message : null
  return typeof message?.content === 'string' ? message.content : null
}

function unusableFor(question: Question, problem: string): EngineError {
  return unusable(`question "${question.name}": ${problem}`)
}
