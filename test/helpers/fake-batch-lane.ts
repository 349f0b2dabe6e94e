import type { BatchItem, BatchLane, BatchOutcome, BatchStatus, Engine } from '../../src/ports/engine.ts'
import { batchStatus } from './batch-status.ts'

/** A fake batch lane over an engine: what it was asked, the batches it holds, and how each ends. */
export interface FakeBatchLane extends BatchLane {
  readonly calls: string[]
  readonly held: Map<string, BatchStatus>
}

/** Options of the fake lane: items per pack, polls to end, the end state, an outcome override per key. */
export interface FakeBatchLaneOptions {
  readonly perPack?: number
  readonly polls?: number
  readonly end?: BatchStatus['state']
  readonly outcome?: (item: BatchItem) => BatchOutcome | undefined
}

/** An in-process BatchLane answering each item with the engine's ask, for tests of the app. */
export function createFakeBatchLane(engine: Engine, options: FakeBatchLaneOptions = {}): FakeBatchLane {
  const calls: string[] = []
  const held = new Map<string, BatchStatus>()
  const polls = new Map<string, number>()
  const status = (over: Partial<BatchStatus> & { id: string; inputFileId: string }): BatchStatus =>
    batchStatus({ state: 'validating', total: 1, ...over })
  return {
    calls,
    held,
    pack(items) {
      const size = options.perPack ?? items.length
      const packs = []
      for (let i = 0; i < items.length; i += size) {
        const part = items.slice(i, i + size)
        packs.push({ items: part, lines: part.length, bytes: part.length })
      }
      return packs
    },
    async upload(pack) {
      calls.push(`upload ${pack.lines}`)
      return `file-${calls.length}`
    },
    async create(fileId, tag) {
      calls.push(`create ${fileId}`)
      const made = status({ id: `batch_${held.size + 1}`, inputFileId: fileId, tag })
      held.set(made.id, made)
      return made
    },
    async retrieve(id) {
      calls.push(`retrieve ${id}`)
      const n = (polls.get(id) ?? 0) + 1
      polls.set(id, n)
      const was = held.get(id)!
      const now =
        n >= (options.polls ?? 1)
          ? { ...was, state: options.end ?? 'completed' }
          : { ...was, state: 'in_progress' as const }
      held.set(id, now)
      return now
    },
    async find(tag) {
      calls.push(`find ${tag}`)
      return [...held.values()].find((b) => b.tag === tag) ?? null
    },
    async cancel(id) {
      calls.push(`cancel ${id}`)
      const now = { ...held.get(id)!, state: 'cancelling' as const }
      held.set(id, now)
      return now
    },
    async collect(_status, items) {
      calls.push(`collect ${items.length}`)
      return Promise.all(
        items.map(
          async (item) =>
            options.outcome?.(item) ?? { key: item.key, ok: true as const, result: await engine.ask(item.request) },
        ),
      )
    },
  }
}
