import { randomUUID } from 'node:crypto'
import { estimateOf } from '../../core/judge/ask.ts'
import { tokenCost } from '../../core/judge/cost.ts'
import { stateHash } from '../../core/judge/state.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchItem, BatchLane, BatchStatus, Engine } from '../../ports/engine.ts'

/** A batch with its items' requests: recorded, and submitted or to be. */
export interface Submission {
  readonly batch: BatchRecord
  readonly items: readonly BatchItem[]
  /** Recorded by an earlier run: it may have been uploaded or created without being recorded so. */
  readonly recovering: boolean
}

/** What a submission is recorded with. */
export interface IntentOf {
  readonly judgment: string
  readonly runId: string
  readonly model: string
  readonly price: number
  readonly now: string
}

/**
 * Records one batch per pack of a judgment's items (the lane splits them by its provider's limits),
 * each with its items, before anything is uploaded: a process killed from here on leaves them for
 * the next run to find.
 */
export function recordIntents(
  store: BatchStore,
  engine: Engine,
  lane: BatchLane,
  items: readonly BatchItem[],
  intent: IntentOf,
): Submission[] {
  if (items.length === 0) return []
  return lane.pack(items).map((pack) => {
    const estimate = pack.items.reduce(
      (sum, item) => sum + tokenCost(estimateOf(engine, item.request).inputTokens, intent.price),
      0,
    )
    const batch: BatchRecord = {
      tag: randomUUID(),
      judgment: intent.judgment,
      runId: intent.runId,
      model: intent.model,
      inputFileId: null,
      batchId: null,
      state: 'recorded',
      total: pack.lines,
      completed: 0,
      failed: 0,
      estimate,
      createdAt: intent.now,
      updatedAt: intent.now,
      landedAt: null,
    }
    const entries = pack.items.map((item) => ({
      key: item.key,
      stateHash: stateHash(item.request.state),
      fingerprints: item.request.questions.map((q) => q.fingerprint),
    }))
    store.recordBatch(batch, entries)
    return { batch, items: pack.items, recovering: false }
  })
}

/**
 * The fields of a recorded batch the provider's status gives; a total of 0 (a batch the provider
 * is still validating has not counted its lines) leaves the lines recorded at submission.
 */
export function statusChange(
  status: BatchStatus,
): Pick<BatchRecord, 'batchId' | 'inputFileId' | 'state' | 'completed' | 'failed'> &
  Partial<Pick<BatchRecord, 'total'>> {
  const { id, inputFileId, state, total, completed, failed } = status
  return { batchId: id, inputFileId, state, ...(total > 0 ? { total } : {}), completed, failed }
}

/**
 * Takes a recorded batch as far as created at the provider, recording each step as it is done: a
 * batch recorded by an earlier run is first looked for by its tag (created just before a crash);
 * one never uploaded is uploaded; one uploaded is created. A batch already created is left as it is.
 */
export async function ensureSubmitted(
  store: BatchStore,
  lane: BatchLane,
  sub: Submission,
  now: () => string,
  signal?: AbortSignal,
): Promise<BatchRecord> {
  let batch = sub.batch
  const record = (change: Partial<BatchRecord>) => {
    batch = { ...batch, ...change, updatedAt: now() }
    store.updateBatch(batch.tag, { ...change, updatedAt: batch.updatedAt })
  }
  if (batch.batchId !== null) return batch
  const found = sub.recovering ? await lane.find(batch.tag, signal) : null
  if (found !== null) {
    record(statusChange(found))
    return batch
  }
  // Nothing of it was uploaded, and nothing of it is in the data any more: there is nothing to submit.
  if (batch.inputFileId === null && sub.items.length === 0) {
    record({ state: 'dropped', landedAt: now() })
    return batch
  }
  if (batch.inputFileId === null) {
    const [pack] = lane.pack(sub.items)
    record({ inputFileId: await lane.upload(pack, signal), state: 'uploaded' })
  }
  record(statusChange(await lane.create(batch.inputFileId!, batch.tag, signal)))
  return batch
}
