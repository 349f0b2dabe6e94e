import { CostCapError } from '../../errors.ts'
import type { State } from '../types.ts'

/** Jev's price in USD per million input tokens; output tokens are free. */
export const DEFAULT_PRICE_PER_MTOK = 0.042

/**
 * Estimated input tokens of one engine request, from a published fit to measured usage:
 * 275 + 0.19 × characters of the state JSON + 21 × questions.
 */
export function estimateTokens(stateJsonLength: number, questions: number): number {
  return 275 + 0.19 * stateJsonLength + 21 * questions
}

/** Estimated input tokens of asking `questions` questions about a state. */
export function estimateStateTokens(state: State, questions: number): number {
  return estimateTokens(JSON.stringify(state).length, questions)
}

/** USD for a number of input tokens at a price per million. */
export function tokenCost(tokens: number, pricePerMtok: number): number {
  return (tokens * pricePerMtok) / 1e6
}

/** A spending cap for one judgment: what has been committed so far against the cap. */
export interface Budget {
  readonly cap: number
  committed: number
}

/** A fresh budget under a cap in USD. */
export function createBudget(cap: number): Budget {
  return { cap, committed: 0 }
}

/**
 * Commits an estimated cost to a budget, or throws CostCapError (and commits nothing) when it
 * would take the total above the cap.
 */
export function commitCost(
  budget: Budget,
  judgment: string,
  answers: number,
  requests: number,
  estimate: number,
): void {
  if (budget.committed + estimate > budget.cap + 1e-12) {
    throw new CostCapError(judgment, answers, requests, budget.committed + estimate, budget.cap)
  }
  budget.committed += estimate
}
