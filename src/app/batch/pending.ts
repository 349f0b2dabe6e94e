import { pendingKey, type PendingQuestions } from '../../core/batch/items.ts'
import type { Spec, State } from '../../core/types.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchItem } from '../../ports/engine.ts'

/** The batches of the given judgments whose answers have not landed yet, oldest first. */
export function pendingBatches(store: BatchStore, judgments: readonly string[]): BatchRecord[] {
  return store
    .listBatches(judgments)
    .filter((b) => b.landedAt === null)
    .reverse()
}

/** The questions the pending batches hold, by model and state hash: none of them goes into another batch. */
export function pendingQuestions(store: BatchStore, batches: readonly BatchRecord[]): PendingQuestions {
  const held = new Map<string, Set<string>>()
  for (const batch of batches) {
    for (const entry of store.batchEntries(batch.tag)) {
      const key = pendingKey(batch.model, entry.stateHash)
      const set = held.get(key) ?? new Set<string>()
      for (const fp of entry.fingerprints) set.add(fp)
      held.set(key, set)
    }
  }
  return held
}

/**
 * The items of a recorded batch, their requests made again from the states of the data and the
 * judgment's questions; an entry whose state is no longer in the data, or whose questions the spec
 * no longer asks, cannot be: it is left out.
 */
export function rebuildItems(
  store: BatchStore,
  spec: Spec,
  batch: BatchRecord,
  states: ReadonlyMap<string, State>,
): BatchItem[] {
  return store.batchEntries(batch.tag).flatMap((entry): BatchItem[] => {
    const state = states.get(pendingKey(batch.model, entry.stateHash))
    const questions = spec.questions.filter((q) => entry.fingerprints.includes(q.fingerprint))
    if (state === undefined || questions.length !== entry.fingerprints.length) return []
    return [{ key: entry.key, request: { model: batch.model, state, questions } }]
  })
}
