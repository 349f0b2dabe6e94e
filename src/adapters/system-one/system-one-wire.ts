import type { Distribution, Question, QuestionType, State } from '../../core/types.ts'
import { isRecord, jsonObject, shown, unusable } from '../engine-answer.ts'
import type { AnswerFacts, EngineRequest, EngineResult } from '../../ports/engine.ts'

/** The System One question types, by the spec's question type. */
export const WIRE_TYPES: Readonly<Record<QuestionType, 'noul' | 'choice' | 'score'>> = {
  yes_no: 'noul',
  choice: 'choice',
  scale: 'score',
}

/** A question as the System One API reads it. */
export interface WireQuestion {
  readonly type: 'noul' | 'choice' | 'score'
  readonly instructions: string
  /** noul: {true, false} descriptions; choice: label -> description or null; score: ordered levels. */
  readonly criteria?: Readonly<Record<string, string | null>> | readonly string[]
}

/** The body of `POST /v1/systemone`. */
export interface WireRequest {
  readonly model: string
  readonly state: State
  readonly questions: Readonly<Record<string, WireQuestion>>
}

/** Builds the request body: every question under its name, in the API's terms. */
export function toWireRequest(request: EngineRequest): WireRequest {
  const questions: Record<string, WireQuestion> = {}
  for (const question of request.questions) questions[question.name] = toWireQuestion(question)
  return { model: request.model, state: request.state, questions }
}

/** One question in the API's terms; see docs/engine.md for the mapping. */
export function toWireQuestion(question: Question): WireQuestion {
  const { ask: instructions, labels, descriptions } = question
  if (question.type === 'choice') {
    const criteria = Object.fromEntries(labels.map((label, i) => [label, descriptions[i] ?? null]))
    return { type: 'choice', instructions, criteria }
  }
  if (question.type === 'scale') {
    // A level without a description is still a level; its label is the best text there is.
    return { type: 'score', instructions, criteria: labels.map((label, i) => descriptions[i] ?? label) }
  }
  const criteria: Record<string, string> = {}
  if (descriptions[0] != null) criteria.true = descriptions[0]
  if (descriptions[1] != null) criteria.false = descriptions[1]
  return Object.keys(criteria).length > 0 ? { type: 'noul', instructions, criteria } : { type: 'noul', instructions }
}

/**
 * Reads a successful answer: a distribution per asked question over its labels, what the engine
 * said beside it (`confidence`, `temperature`, `option_mass`, each when given), the model that
 * answered and the tokens it counted. Anything unusable is an EngineError naming what and where.
 */
export function parseWireResponse(text: string, questions: readonly Question[]): EngineResult {
  const body = jsonObject(text)
  if (typeof body.model !== 'string' || body.model === '') throw unusable(`field "model" is ${shown(body.model)}`)
  if (!isRecord(body.answers)) throw unusable(`field "answers" is ${shown(body.answers)}`)
  const distributions: Record<string, Distribution> = {}
  const facts: Record<string, AnswerFacts> = {}
  for (const question of questions) {
    const answer = Object.hasOwn(body.answers, question.name) ? body.answers[question.name] : undefined
    distributions[question.name] = readAnswer(question, answer)
    const said = readFacts(answer as Record<string, unknown>, `question "${question.name}"`)
    if (Object.keys(said).length > 0) facts[question.name] = said
  }
  const result = { model: body.model, distributions, ...readUsage(body.usage) }
  return Object.keys(facts).length > 0 ? { ...result, facts } : result
}

/** The optional fields of an answer, each kept only when present; null reads as absent. */
function readFacts(answer: Record<string, unknown>, where: string): AnswerFacts {
  const field = (name: string, valid: (n: number) => boolean, want: string): number | undefined => {
    const value = answer[name]
    if (value === undefined || value === null) return undefined
    if (typeof value === 'number' && Number.isFinite(value) && valid(value)) return value
    throw unusable(`${where}: field "${name}" is ${shown(value)}, not ${want}`)
  }
  const unit = (n: number) => n >= 0 && n <= 1
  const confidence = field('confidence', unit, 'a number in [0, 1]')
  const temperature = field('temperature', (n) => n >= 0, 'a number from 0')
  const optionMass = field('option_mass', unit, 'a number in [0, 1]')
  return {
    ...(confidence === undefined ? {} : { confidence }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(optionMass === undefined ? {} : { optionMass }),
  }
}

function readAnswer(question: Question, answer: unknown): Distribution {
  const where = `question "${question.name}"`
  if (answer === undefined) throw unusable(`${where} has no answer`)
  if (!isRecord(answer)) throw unusable(`${where}: the answer is ${shown(answer)}, not an object`)
  const type = WIRE_TYPES[question.type]
  if (answer.type !== undefined && answer.type !== type) {
    throw unusable(`${where}: answered as type ${shown(answer.type)}, asked as "${type}"`)
  }
  if (question.type === 'yes_no') {
    const yes = probability(answer.noul, `${where}: field "noul"`)
    // 1 - 0.93 is 0.06999999999999995 in floating point; the engine meant 0.07.
    return { [question.labels[0]]: yes, [question.labels[1]]: Math.round((1 - yes) * 1e12) / 1e12 }
  }
  return readProbabilities(question, answer.probabilities, where)
}

function readProbabilities(question: Question, probabilities: unknown, where: string): Distribution {
  if (!isRecord(probabilities)) throw unusable(`${where}: field "probabilities" is ${shown(probabilities)}`)
  // Choice answers are keyed by label, score answers by level index "0", "1", ...
  const keys = question.type === 'scale' ? question.labels.map((_, i) => String(i)) : question.labels
  const name = question.type === 'scale' ? 'level' : 'label'
  for (const key of Object.keys(probabilities)) {
    if (!keys.includes(key)) throw unusable(`${where}: unknown ${name} "${key}" in "probabilities"`)
  }
  const distribution: Record<string, number> = {}
  keys.forEach((key, i) => {
    const value = Object.hasOwn(probabilities, key) ? probabilities[key] : undefined
    if (value === undefined) throw unusable(`${where}: no probability for ${name} "${key}"`)
    distribution[question.labels[i]] = probability(value, `${where}: probability of ${name} "${key}"`)
  })
  return distribution
}

function probability(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1) return value
  throw unusable(`${what} is ${shown(value)}, not a number in [0, 1]`)
}

function readUsage(usage: unknown): { inputTokens: number; outputTokens: number } {
  if (!isRecord(usage)) throw unusable(`field "usage" is ${shown(usage)}`)
  // Only input tokens are billed; a missing output count costs nothing, so it reads as 0.
  const outputTokens = usage.output_tokens === undefined ? 0 : tokens(usage.output_tokens, 'output_tokens')
  return { inputTokens: tokens(usage.input_tokens, 'input_tokens'), outputTokens }
}

function tokens(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value
  throw unusable(`field "usage.${field}" is ${shown(value)}, not a count of tokens`)
}
