import { landedOf } from '../../core/batch/land.ts'
import { timestamp, type JudgeDeps } from '../../core/judge/deps.ts'
import type { Ledger } from '../../core/judge/ledger.ts'
import type { Spec } from '../../core/types.ts'
import type { BatchOutcome, BatchLane, BatchStatus } from '../../ports/engine.ts'
import type { BatchStore } from '../../ports/batch-store.ts'
import type { ItemsOf, Submission } from './submit.ts'

/**
 * Reads a finished batch's output and error files and stores every answer through the same path as
 * a per-request answer (putAnswers, the same cache key), its items made again from the rows
 * (itemsOf), counting what it cost at the batch price; then records the batch landed. Returns the
 * items that got no answer: failed, expired, missing, or an answer that could not be read; they stay
 * unanswered, for the next run to ask.
 */
export async function landBatch(
  deps: JudgeDeps & { readonly store: BatchStore },
  lane: BatchLane,
  spec: Spec,
  sub: Submission,
  itemsOf: ItemsOf,
  status: BatchStatus,
  job: { readonly ledger: Ledger; readonly price: number; readonly signal?: AbortSignal },
): Promise<BatchOutcome[]> {
  const asked = await itemsOf(sub.batch)
  const outcomes = await lane.collect(status, asked, job.signal)
  const items = new Map(asked.map((item) => [item.key, item]))
  const askedAt = timestamp(deps.now())
  const tally = job.ledger.tally(spec.name)
  const failed: BatchOutcome[] = []
  for (const outcome of outcomes) {
    const item = items.get(outcome.key)
    if (!outcome.ok || item === undefined) {
      failed.push(outcome.ok ? { key: outcome.key, ok: false, reason: 'not asked' } : outcome)
      continue
    }
    try {
      const landed = landedOf(spec, item, outcome, askedAt, job.price)
      deps.store.putAnswers(landed.answers, landed.hash, item.request.state)
      tally.asked += landed.answers.length
      tally.requests += landed.requests
      tally.cost += landed.cost
    } catch (error) {
      failed.push({ key: outcome.key, ok: false, reason: (error as Error).message })
    }
  }
  deps.store.updateBatch(sub.batch.tag, {
    state: status.state,
    landedAt: timestamp(deps.now()),
    updatedAt: timestamp(deps.now()),
  })
  return failed
}
