import { MissingKeyError } from '../../errors.ts'
import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { EngineEstimate, EngineRequest } from '../../ports/engine.ts'
import type { Reask } from '../../ports/reask-store.ts'
import type { Stratum } from '../review/strata.ts'
import type { Question, Spec, State } from '../types.ts'
import { readDistribution } from '../judge/answer.ts'
import { distributionFor, estimateOf } from '../judge/ask.ts'
import { tokenCost } from '../judge/cost.ts'
import { timestamp, type JudgeDeps } from '../judge/deps.ts'

/** A stored answer drawn for a stability check, with the stratum it was drawn from. */
export interface DrawnAnswer {
  readonly question: Question
  readonly stored: StoredAnswer
  readonly stratum: Stratum
  /** Answers in the stratum (N_h) and drawn from it (n_h). */
  readonly size: number
  readonly sampled: number
}

/** One state to ask again: every answer drawn for it, asked in one request. */
export interface ReaskState {
  readonly spec: Spec
  readonly model: string
  readonly stateHash: string
  readonly state: State
  readonly drawn: readonly DrawnAnswer[]
}

/** What asking a state again brought: its re-asks (not stored), the cost and the HTTP requests. */
export interface Reasked {
  readonly reasks: Reask[]
  readonly cost: number
  readonly requests: number
}

/** The engine request that asks a state again. */
export function reaskRequest(s: ReaskState): EngineRequest {
  return { model: s.model, state: s.state, questions: s.drawn.map((d) => d.question) }
}

/** What asking a state again is expected to take, known before asking (for the cost cap). */
export function reaskEstimate(deps: JudgeDeps, s: ReaskState): EngineEstimate & { readonly cost: number } {
  const estimate = estimateOf(deps.engine, reaskRequest(s))
  return { ...estimate, cost: tokenCost(estimate.inputTokens, deps.pricePerMtok) }
}

/**
 * Asks the engine again the drawn questions of one state, past the answer cache, as a run asks:
 * through the store's governor (its pace, concurrency and retries) with a run's patience. Nothing
 * is looked up or written in the answer cache; the caller keeps the re-asks apart.
 */
export async function askAgain(deps: JudgeDeps, check: string, s: ReaskState, signal?: AbortSignal): Promise<Reasked> {
  if (!deps.engine) throw new MissingKeyError(s.spec.name)
  const request = reaskRequest(s)
  const result = deps.governor
    ? await deps.governor.ask(deps.engine, request, 'run', signal)
    : await deps.engine.ask(request, signal)
  const askedAt = timestamp(deps.now())
  const reasks = s.drawn.map((d): Reask => {
    const distribution = distributionFor(result, d.question, s.spec)
    const { label, p, margin } = readDistribution(d.question, distribution)
    return {
      check,
      judgment: s.spec.name,
      question: d.question.name,
      model: s.model,
      fingerprint: d.question.fingerprint,
      stateHash: s.stateHash,
      stratum: d.stratum,
      stratumSize: d.size,
      stratumSampled: d.sampled,
      storedLabel: d.stored.label,
      storedP: d.stored.p,
      storedMargin: d.stored.margin,
      distribution,
      label,
      p,
      margin,
      askedAt,
      reportedModel: result.model,
    }
  })
  return { reasks, cost: tokenCost(result.inputTokens, deps.pricePerMtok), requests: result.requests ?? 1 }
}
