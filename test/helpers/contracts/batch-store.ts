import type { Test } from 'tap'
import type { BatchEntry, BatchRecord, BatchStore } from '../../../src/ports/batch-store.ts'
import { freshOf, type Closable } from './fresh.ts'

/** A batch of the spam judgment just recorded, with fields overridden. */
export function batchRecord(over: Partial<BatchRecord> = {}): BatchRecord {
  return {
    tag: '00000000-0000-4000-8000-000000000001',
    judgment: 'spam',
    runId: '20260101T000000Z-aaaaaa',
    model: 'jev-1',
    inputFileId: null,
    batchId: null,
    state: 'recorded',
    total: 0,
    completed: 0,
    failed: 0,
    estimate: 0.25,
    createdAt: '2026-01-01T00:00:00.000',
    updatedAt: '2026-01-01T00:00:00.000',
    landedAt: null,
    ...over,
  }
}

const ENTRIES: BatchEntry[] = [
  { key: 'k2', stateHash: 'state-2', fingerprints: ['fp-spam'] },
  { key: 'k1', stateHash: 'state-1', fingerprints: ['fp-spam', 'fp-tone'] },
]

/**
 * The BatchStore contract: a batch is recorded with its items at once, changed as it goes, and
 * listed newest first. Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function batchStoreContract(t: Test, title: string, open: () => Closable<BatchStore>): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('a store without batches lists none', async (t) => {
        const store = fresh(t)
        t.same(store.listBatches(), [])
        t.same(store.batchEntries('none'), [])
        t.equal(store.updateBatch('none', { updatedAt: '2026-01-01T00:00:01.000' }), false)
      })
      t.test('a batch comes back as recorded, with its items in key order', async (t) => {
        const store = fresh(t)
        store.recordBatch(batchRecord(), ENTRIES)
        t.same(store.listBatches(), [batchRecord()])
        t.same(store.batchEntries(batchRecord().tag), [ENTRIES[1], ENTRIES[0]])
      })
      t.test('a tag recorded again is left as it was', async (t) => {
        const store = fresh(t)
        store.recordBatch(batchRecord(), ENTRIES)
        store.recordBatch(batchRecord({ judgment: 'other', estimate: 9 }), [ENTRIES[0]])
        t.same(store.listBatches(), [batchRecord()])
        t.equal(store.batchEntries(batchRecord().tag).length, 2)
      })
      t.test('a change sets the fields it names and leaves the rest', async (t) => {
        const store = fresh(t)
        store.recordBatch(batchRecord(), ENTRIES)
        const at = '2026-01-01T00:01:00.000'
        t.equal(store.updateBatch(batchRecord().tag, { inputFileId: 'file-1', state: 'uploaded', updatedAt: at }), true)
        store.updateBatch(batchRecord().tag, { batchId: 'batch_1', state: 'in_progress', total: 3, updatedAt: at })
        store.updateBatch(batchRecord().tag, { completed: 2, failed: 1, landedAt: at, updatedAt: at })
        t.same(store.listBatches(), [
          batchRecord({
            inputFileId: 'file-1',
            batchId: 'batch_1',
            state: 'in_progress',
            total: 3,
            completed: 2,
            failed: 1,
            landedAt: at,
            updatedAt: at,
          }),
        ])
      })
      t.test('batches list newest first, of the judgments asked for', async (t) => {
        const store = fresh(t)
        const older = batchRecord({ tag: 'a', createdAt: '2026-01-01T00:00:00.000' })
        const newer = batchRecord({ tag: 'b', createdAt: '2026-01-02T00:00:00.000' })
        const other = batchRecord({ tag: 'c', judgment: 'tone', createdAt: '2026-01-03T00:00:00.000' })
        for (const b of [older, newer, other]) store.recordBatch(b, [])
        t.same(
          store.listBatches().map((b) => b.tag),
          ['c', 'b', 'a'],
        )
        t.same(
          store.listBatches(['spam']).map((b) => b.tag),
          ['b', 'a'],
        )
        t.same(store.listBatches([]), [])
      })
    })
    .then(() => undefined)
}
