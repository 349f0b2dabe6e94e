import { answersToStore } from '../judge/ask.ts'
import { tokenCost } from '../judge/cost.ts'
import type { BatchItem, BatchOutcome } from '../../ports/engine.ts'
import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Spec } from '../types.ts'
import { stateHash } from '../judge/state.ts'
import { plural } from '../../format.ts'

/** What one item of a finished batch gives to store, and what it cost at the batch price. */
export interface Landed {
  readonly answers: StoredAnswer[]
  readonly hash: string
  readonly cost: number
  /** Provider requests it took: one per question answered (OpenAI). */
  readonly requests: number
}

/**
 * The answers of an item answered in a batch, read by the same code as a per-request answer
 * (core/judge/ask.ts, answersToStore), with its cost from the usage at the batch price.
 */
export function landedOf(
  spec: Spec,
  item: BatchItem,
  outcome: Extract<BatchOutcome, { ok: true }>,
  askedAt: string,
  price: number,
): Landed {
  const { model, questions } = item.request
  const hash = stateHash(item.request.state)
  const answers = answersToStore(spec, { model, hash, questions }, outcome.result, askedAt)
  return {
    answers,
    hash,
    cost: tokenCost(outcome.result.inputTokens, price),
    requests: outcome.result.requests ?? questions.length,
  }
}

/** The failed items of a batch by reason, as "3 expired, 1 failed: 500 server error", most first; '' when none. */
export function failureText(outcomes: readonly BatchOutcome[]): string {
  const counts = new Map<string, number>()
  for (const o of outcomes) if (!o.ok) counts.set(o.reason, (counts.get(o.reason) ?? 0) + 1)
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${n} ${reason}`)
    .join(', ')
}

/** Why a bulk run is not complete: the items that got no answer, and the rows left without every answer. */
export function unansweredMessage(failed: readonly BatchOutcome[], rows: number): string {
  const items =
    failed.length > 0 ? [`${plural(failed.length, 'item')} unanswered in the batch (${failureText(failed)})`] : []
  return `${[...items, `${plural(rows, 'row')} without every answer`].join('; ')}; run again to ask them`
}
