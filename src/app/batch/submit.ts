import { randomUUID } from 'node:crypto'
import { estimateOf } from '../../core/judge/ask.ts'
import { tokenCost } from '../../core/judge/cost.ts'
import { stateHash } from '../../core/judge/state.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchItem, BatchLane, BatchStatus, Engine } from '../../ports/engine.ts'

/**
 * A batch recorded, and submitted or to be: its entries are in the store, its items' requests are made
 * again from the rows when they are needed (ItemsOf), so that a submission never holds them all.
 */
export interface Submission {
  readonly batch: BatchRecord
  /** Recorded by an earlier run: it may have been uploaded or created without being recorded so. */
  readonly recovering: boolean
}

/** The items of a recorded batch, their requests made from the rows: just before its upload, and at its landing. */
export type ItemsOf = (batch: BatchRecord) => Promise<readonly BatchItem[]>

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
    return { batch, recovering: false }
  })
}

/** Items gathered before they are packed; once that many are held, the packs they fill are recorded. */
export const GATHERED_ITEMS = 8192

/** A recorder of a judgment's batches as its items are found: add items, then finish. */
export interface IntentRecorder {
  add(item: BatchItem): void
  /** Records the batches of the items left; gives every batch recorded. */
  finish(): Submission[]
}

/**
 * Records a judgment's batches as its items come (recordIntents), holding only the items of the pack
 * still open and those since: each full pack is recorded (its entries, not its items) and let go.
 */
export function createIntentRecorder(
  store: BatchStore,
  engine: Engine,
  lane: BatchLane,
  intent: IntentOf,
  held = GATHERED_ITEMS,
): IntentRecorder {
  const subs: Submission[] = []
  let open: BatchItem[] = []
  let limit = held
  return {
    add(item) {
      open.push(item)
      if (open.length < limit) return
      const packs = lane.pack(open)
      const last = packs.pop()!
      for (const pack of packs) subs.push(...recordIntents(store, engine, lane, pack.items, intent))
      open = [...last.items]
      limit = Math.max(held, 2 * open.length)
    },
    finish() {
      subs.push(...recordIntents(store, engine, lane, open, intent))
      open = []
      return subs
    },
  }
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
  itemsOf: ItemsOf,
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
  if (batch.inputFileId === null) {
    const items = await itemsOf(batch)
    // Nothing of it was uploaded, and nothing of it is in the data any more: there is nothing to submit.
    if (items.length === 0) {
      record({ state: 'dropped', landedAt: now() })
      return batch
    }
    const [pack] = lane.pack(items)
    record({ inputFileId: await lane.upload(pack, signal), state: 'uploaded' })
  }
  record(statusChange(await lane.create(batch.inputFileId!, batch.tag, signal)))
  return batch
}
