import { createItemRebuilder, pendingKey, type PendingQuestions } from '../../core/batch/items.ts'
import type { JudgeDeps } from '../../core/judge/deps.ts'
import type { Spec } from '../../core/types.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchItem } from '../../ports/engine.ts'
import type { App } from '../app.ts'
import { rowsOf, type RowSource } from '../plan.ts'

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
 * The items of a recorded batch, their requests made again from the rows of the source and the
 * judgment's questions, reading the rows once; an entry whose state is no longer in the data, or
 * whose questions the spec no longer asks, cannot be: it is left out. `specs` in dependency order.
 */
export async function rebuildItems(
  app: App,
  deps: Pick<JudgeDeps, 'store' | 'engine' | 'defaultModel'> & { readonly store: BatchStore },
  specs: readonly Spec[],
  source: RowSource,
  batch: BatchRecord,
): Promise<BatchItem[]> {
  const upTo = specs.findIndex((s) => s.name === batch.judgment)
  const rebuilder = createItemRebuilder(deps, specs.slice(0, upTo + 1), batch, deps.store.batchEntries(batch.tag))
  for await (const sourced of rowsOf(app, source)) rebuilder.add(sourced)
  return rebuilder.items()
}
