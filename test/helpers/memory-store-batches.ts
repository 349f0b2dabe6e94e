import type { BatchEntry, BatchRecord, BatchStore } from '../../src/ports/batch-store.ts'

/** The batch methods of the in-memory store, with the SQLite adapter's observable behaviour. */
export function createMemoryBatches(): BatchStore {
  const batches = new Map<string, BatchRecord>()
  const entries = new Map<string, BatchEntry[]>()
  const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value))
  return {
    recordBatch(batch, items) {
      if (batches.has(batch.tag)) return
      batches.set(batch.tag, copy(batch))
      const unique = new Map(items.map((e) => [e.key, copy(e)]))
      entries.set(
        batch.tag,
        [...unique.values()].sort((a, b) => (a.key < b.key ? -1 : 1)),
      )
    },
    updateBatch(tag, change) {
      const was = batches.get(tag)
      if (!was) return false
      batches.set(tag, copy({ ...was, ...change }))
      return true
    },
    listBatches(judgments) {
      return [...batches.values()]
        .filter((b) => judgments === undefined || judgments.includes(b.judgment))
        .sort((a, b) => (a.createdAt === b.createdAt ? (a.tag < b.tag ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
        .map(copy)
    },
    batchEntries(tag) {
      return copy(entries.get(tag) ?? [])
    },
  }
}
