import { setTimeout as delay } from 'node:timers/promises'
import type { Distribution, Question, State } from '../../src/core/types.ts'
import { EngineError } from '../../src/errors.ts'
import type { AnswerFacts, Engine, EngineRequest, EngineResult, ListedModel } from '../../src/ports/engine.ts'
import { simulatedProbabilities } from './simulated-model.ts'

/** Options of the fake engine; by default it answers at once like a stable, made-up model. */
export interface FakeEngineOptions {
  /** The distribution for one question; default derived from a hash of the state and question. */
  readonly answer?: (question: Question, state: State, model: string) => Distribution
  /** Wait this long before answering (the signal cuts it short). */
  readonly latencyMs?: number
  /**
   * Fail every call (true), with a given error, or when the function returns one for a call
   * (`index` counts calls from 0). The default failure is an EngineError for an engine 500.
   */
  readonly fail?: true | Error | ((request: EngineRequest, index: number) => Error | undefined)
  readonly defaultModel?: string
  /** The option mass the engine gives a question's answer; none when absent or when it returns undefined. */
  readonly optionMass?: (question: Question, state: State) => number | undefined
  /** The models it lists; default its default model alone. An Error makes the listing fail with it. */
  readonly models?: readonly ListedModel[] | Error
}

/** The fake engine: an Engine that also shows what it was asked. */
export interface FakeEngine extends Engine {
  /** Every request, in the order the calls were made (failed ones included). */
  readonly calls: EngineRequest[]
  /** The most calls that were in flight at once. */
  readonly maxInFlight: number
}

/** An in-process Engine for tests of the core; see FakeEngineOptions. */
export function createFakeEngine(options: FakeEngineOptions = {}): FakeEngine {
  const calls: EngineRequest[] = []
  let inFlight = 0
  let maxInFlight = 0
  const ask = async (request: EngineRequest, signal?: AbortSignal): Promise<EngineResult> => {
    const index = calls.push(request) - 1
    maxInFlight = Math.max(maxInFlight, ++inFlight)
    try {
      if (options.latencyMs) await wait(options.latencyMs, signal)
      if (signal?.aborted) throw new EngineError('the engine request was cancelled', null, { cause: signal.reason })
      const error = failure(options.fail, request, index)
      if (error) throw error
      return answer(request, options)
    } finally {
      inFlight--
    }
  }
  const defaultModel = options.defaultModel ?? 'fake-1'
  return {
    defaultModel,
    ask,
    async models() {
      if (options.models instanceof Error) throw options.models
      return (options.models ?? [{ name: defaultModel, description: null, releaseDate: null }]).map((m) => ({ ...m }))
    },
    calls,
    get maxInFlight() {
      return maxInFlight
    },
  }
}

/** What the fake answers for a question by default: stable for the same state and question. */
export function fakeDistribution(question: Question, state: State): Distribution {
  const p = simulatedProbabilities(JSON.stringify([state, question.fingerprint]), question.labels.length)
  return Object.fromEntries(question.labels.map((label, i) => [label, p[i]]))
}

function answer(request: EngineRequest, options: FakeEngineOptions): EngineResult {
  const distributions: Record<string, Distribution> = {}
  const facts: Record<string, AnswerFacts> = {}
  for (const question of request.questions) {
    distributions[question.name] = options.answer
      ? options.answer(question, request.state, request.model)
      : fakeDistribution(question, request.state)
    const optionMass = options.optionMass?.(question, request.state)
    if (optionMass !== undefined) facts[question.name] = { optionMass }
  }
  // The published fit the product estimates cost with, so estimates and records agree here.
  const inputTokens = Math.round(275 + 0.19 * JSON.stringify(request.state).length + 21 * request.questions.length)
  const result = { model: request.model, distributions, inputTokens, outputTokens: request.questions.length }
  return Object.keys(facts).length > 0 ? { ...result, facts } : result
}

function failure(fail: FakeEngineOptions['fail'], request: EngineRequest, index: number): Error | undefined {
  if (fail === undefined) return undefined
  if (fail === true) return new EngineError('engine answered 500: simulated failure', 500, { transient: true })
  return fail instanceof Error ? fail : fail(request, index)
}

async function wait(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch {
    // Aborted: the caller checks the signal and reports the cancellation.
  }
}
