import type { Distribution } from '../../core/types.ts'
import type { AnswerFacts, EngineRequest, EngineResult } from '../../ports/engine.ts'
import type { ChatAnswer } from './openai-wire.ts'

/** One question's answer, and its prompt's estimated tokens, counted when the server reports no usage. */
export interface QuestionAnswer {
  readonly answer: ChatAnswer
  readonly estimated: number
  /** The requests it took; 1 when absent. */
  readonly requests?: number
  /** For an answer pooled from k samples (sampled-answer.ts): k; absent for one answer. */
  readonly samples?: number
}

/**
 * A row's answers, one per question in the request's order, as the port's result: the
 * distributions, how each was obtained and its option mass, the usage and requests summed and the
 * model the server named. Both lanes (requests per question, or batch lines per question) give
 * their answers to it.
 */
export function chatResult(request: EngineRequest, answers: readonly QuestionAnswer[]): EngineResult {
  const distributions: Record<string, Distribution> = {}
  const facts: Record<string, AnswerFacts> = {}
  request.questions.forEach((q, i) => {
    distributions[q.name] = answers[i].answer.distribution
    facts[q.name] = factsOf(answers[i])
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
    requests: answers.reduce((sum, a) => sum + (a.requests ?? 1), 0),
    facts,
  }
}

/**
 * How an answer's distribution was obtained: the share of k samples, the text's label at probability 1, or the
 * first token's log probabilities; with the option mass whenever the server listed tokens.
 */
function factsOf({ answer, samples }: QuestionAnswer): AnswerFacts {
  if (samples !== undefined) return { source: 'samples', samples }
  const mass = answer.optionMass === null ? {} : { optionMass: answer.optionMass }
  return answer.source === 'text' ? { source: 'text', samples: 1, ...mass } : { source: 'logprobs', ...mass }
}
