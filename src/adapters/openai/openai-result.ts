import type { Distribution } from '../../core/types.ts'
import type { AnswerFacts, EngineRequest, EngineResult } from '../../ports/engine.ts'
import type { ChatAnswer } from './openai-wire.ts'

/** One question's answer, and its prompt's estimated tokens, counted when the server reports no usage. */
export interface QuestionAnswer {
  readonly answer: ChatAnswer
  readonly estimated: number
}

/**
 * A row's answers, one per question in the request's order, as the port's result: the
 * distributions, the option masses, the usage summed and the model the server named. Both lanes
 * (one request per question, or one batch line per question) give their answers to it.
 */
export function chatResult(request: EngineRequest, answers: readonly QuestionAnswer[]): EngineResult {
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
