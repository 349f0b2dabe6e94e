import type { Question, State } from '../../core/types.ts'
import { isRecord, jsonObject, shown, unusable, wholeCount } from '../engine-answer.ts'
import { estimateMessageTokens, LABEL_SYSTEM, labelPrompt } from '../label-prompt.ts'
import { labelDistribution, type ChatAnswer } from '../openai/openai-wire.ts'

/** The API version every request names (`anthropic-version`). */
export const ANTHROPIC_VERSION = '2023-06-01'

/** Tokens an answer may take: room for a label of several words, not for an explanation. */
export const MAX_ANSWER_TOKENS = 16

/** The body of `POST {ENGINE_URL}/v1/messages` for one question. */
export interface MessagesRequest {
  readonly model: string
  readonly max_tokens: number
  readonly system: string
  readonly messages: readonly [{ readonly role: 'user'; readonly content: string }]
  readonly temperature: number
}

/**
 * The request for one question: the prompt every chat engine is given (label-prompt.ts), answered with one label, at
 * `temperature`: 0 for one answer, above 0 for one of k samples.
 */
export function toMessagesRequest(model: string, state: State, question: Question, temperature = 0): MessagesRequest {
  return {
    model,
    max_tokens: MAX_ANSWER_TOKENS,
    system: LABEL_SYSTEM,
    messages: [{ role: 'user', content: labelPrompt(state, question) }],
    temperature,
  }
}

/** Input tokens of one question's request, estimated before asking, as the OpenAI-compatible lane's. */
export function estimateMessagesTokens(request: MessagesRequest): number {
  return estimateMessageTokens([request.system, request.messages[0].content])
}

/** Reads a message: the label its text names, the model, the usage. */
export function parseMessage(text: string, question: Question): ChatAnswer {
  return readMessage(jsonObject(text), question)
}

/**
 * A message per question: its request, estimate and answer, for the per-request lane and the
 * batch's results alike. A QuestionWire, left untyped as openai-wire.ts's CHAT.
 */
export const MESSAGES = {
  request: (model: string, state: State, question: Question) => toMessagesRequest(model, state, question),
  sample: toMessagesRequest,
  estimate: estimateMessagesTokens,
  parse: parseMessage,
  read: readMessage,
  logprobs: false,
}

/**
 * Reads a message already parsed (a batch's result holds it as `result.message`): `{"model",
 * "content": [{"type": "text", "text"}], "usage": {"input_tokens", "output_tokens"}}`. There are no
 * log probabilities: the label the text names gets probability 1, as the OpenAI-compatible lane's
 * answer without them (labelDistribution); k such answers make a sampled distribution (sampled-answer.ts).
 */
export function readMessage(body: Record<string, unknown>, question: Question): ChatAnswer {
  if (!Array.isArray(body.content))
    throw unusable(`question "${question.name}": field "content" is ${shown(body.content)}`)
  const texts = body.content
    .filter(isRecord)
    .flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
  const usage = isRecord(body.usage) ? body.usage : {}
  return {
    model: typeof body.model === 'string' && body.model !== '' ? body.model : null,
    distribution: labelDistribution(question, [], texts.length === 0 ? null : texts.join('')),
    optionMass: null,
    source: 'text',
    promptTokens: wholeCount(usage.input_tokens),
    completionTokens: wholeCount(usage.output_tokens),
  }
}
