import { batchFigures, hasEnded, pollDelay, type BatchFigures } from '../../core/batch/progress.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchLane, BatchStatus } from '../../ports/engine.ts'
import { statusChange } from './submit.ts'

/** How a wait for batches goes: its first poll interval, its sleep and what it tells. */
export interface WaitOptions {
  /** The first wait between polls in ms; it doubles each poll, up to a minute. */
  readonly pollMs: number
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  readonly now: () => string
  /** Told the provider's counts over every batch after each poll. */
  readonly onPoll?: (figures: BatchFigures) => void
  readonly signal?: AbortSignal
}

/**
 * Polls each created batch (GET {url}/batches/{id}) with backoff until every one has ended,
 * recording its state and counts at each poll; returns each batch's last status by tag.
 */
export async function waitForBatches(
  store: BatchStore,
  lane: BatchLane,
  batches: readonly BatchRecord[],
  options: WaitOptions,
): Promise<Map<string, BatchStatus>> {
  const last = new Map<string, BatchStatus>()
  for (let polls = 0; ; polls++) {
    for (const batch of batches) {
      const seen = last.get(batch.tag)
      if (seen && hasEnded(seen.state)) continue
      const status = await lane.retrieve(batch.batchId!, options.signal)
      last.set(batch.tag, status)
      store.updateBatch(batch.tag, { ...statusChange(status), updatedAt: options.now() })
    }
    const now = [...last.values()]
    options.onPoll?.(batchFigures(now))
    if (now.every((s) => hasEnded(s.state))) return last
    await options.sleep(pollDelay(polls, options.pollMs), options.signal)
  }
}
