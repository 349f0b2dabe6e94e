import t from 'tap'
import { pendingKey } from '../../../src/core/batch/items.ts'
import { pendingBatches, pendingQuestions, rebuildItems } from '../../../src/app/batch/pending.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'
import { spec } from '../../helpers/specs.ts'

t.test('pending batches, oldest first, and the questions they hold', async (t) => {
  const store = createMemoryStore()
  const s = spec()
  const [a, b] = s.questions.map((q) => q.fingerprint)
  store.recordBatch(batchRecord({ tag: 'old', createdAt: '2026-01-01T00:00:00.000' }), [
    { key: 'k1', stateHash: 'h1', fingerprints: [a] },
  ])
  store.recordBatch(batchRecord({ tag: 'new', createdAt: '2026-01-02T00:00:00.000' }), [
    { key: 'k2', stateHash: 'h1', fingerprints: [b] },
  ])
  store.recordBatch(batchRecord({ tag: 'done', landedAt: '2026-01-03T00:00:00.000' }), [])
  const pending = pendingBatches(store, ['spam'])
  t.same(
    pending.map((p) => p.tag),
    ['old', 'new'],
  )
  t.same([...pendingQuestions(store, pending).get(pendingKey('jev-1', 'h1'))!], [a, b])
})

t.test("a pending batch's items are made again from the data's states; what is gone is left out", async (t) => {
  const store = createMemoryStore()
  const s = spec()
  const fps = s.questions.map((q) => q.fingerprint)
  store.recordBatch(batchRecord(), [
    { key: 'k1', stateHash: 'h1', fingerprints: fps },
    { key: 'k2', stateHash: 'gone', fingerprints: fps },
    { key: 'k3', stateHash: 'h1', fingerprints: ['reworded'] },
  ])
  const states = new Map([[pendingKey('jev-1', 'h1'), { message: 'hi' }]])
  const items = rebuildItems(store, s, batchRecord(), states)
  t.same(
    items.map((i) => i.key),
    ['k1'],
  )
  t.same(items[0].request.state, { message: 'hi' })
  t.equal(items[0].request.questions.length, 3)
})
