import { createItemRebuilder, pendingKey, type PendingQuestions } from '../../core/batch/items.ts'
import type { JudgeDeps } from '../../core/judge/deps.ts'
import type { Spec } from '../../core/types.ts'
import type { BatchRecord, BatchStore } from '../../ports/batch-store.ts'
import type { BatchItem } from '../../ports/engine.ts'
import type { App } from '../app.ts'
import type { ItemsOf } from './submit.ts'
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

type RebuildDeps = Pick<JudgeDeps, 'store' | 'engine' | 'defaultModel'> & { readonly store: BatchStore }

/**
 * The items of recorded batches by tag, their requests made again from the rows of the source and
 * the judgments' questions, reading the rows once; an entry whose state is no longer in the data, or
 * whose questions the spec no longer asks, cannot be: it is left out. `specs` in dependency order.
 */
export async function rebuildItemsOf(
  app: App,
  deps: RebuildDeps,
  specs: readonly Spec[],
  source: RowSource,
  batches: readonly BatchRecord[],
): Promise<Map<string, BatchItem[]>> {
  const recorded = batches.map((b) => ({ ...b, entries: deps.store.batchEntries(b.tag) }))
  const rebuilder = createItemRebuilder(deps, specs, recorded)
  for await (const sourced of rowsOf(app, source)) rebuilder.add(sourced)
  return rebuilder.items()
}

/** The items of one recorded batch (rebuildItemsOf). */
export async function rebuildItems(
  app: App,
  deps: RebuildDeps,
  specs: readonly Spec[],
  source: RowSource,
  batch: BatchRecord,
): Promise<BatchItem[]> {
  return (await rebuildItemsOf(app, deps, specs, source, [batch])).get(batch.tag)!
}

/**
 * The items of the batches due, in their order, each asked for once (ItemsOf): a batch asked for
 * that is not held yet is rebuilt in one pass over the rows with the batches due after it, as many
 * as hold `held` entries in all (or that one batch alone, when it holds more), so that a pass serves
 * several small batches and no more is held than the larger of `held` and one batch. Items of a
 * batch skipped over are let go.
 */
export function createItemsOf(
  app: App,
  deps: RebuildDeps,
  specs: readonly Spec[],
  source: RowSource,
  due: readonly BatchRecord[],
  held: number,
): ItemsOf {
  const order = due.map((b) => b.tag)
  const sizes = new Map(due.map((b) => [b.tag, deps.store.batchEntries(b.tag).length]))
  let items = new Map<string, BatchItem[]>()
  return async (batch) => {
    const at = order.indexOf(batch.tag)
    if (at < 0) return rebuildItems(app, deps, specs, source, batch)
    for (const tag of order.slice(0, at)) items.delete(tag)
    if (!items.has(batch.tag)) {
      const group: BatchRecord[] = [batch]
      let count = sizes.get(batch.tag)!
      for (const next of due.slice(at + 1)) {
        count += sizes.get(next.tag)!
        if (count > held) break
        group.push(next)
      }
      items = await rebuildItemsOf(app, deps, specs, source, group)
    }
    const found = items.get(batch.tag)!
    items.delete(batch.tag)
    return found
  }
}
