import t from 'tap'
import { pendingKey } from '../../../src/core/batch/items.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { app, deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
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

t.test("a pending batch's items are made again from the rows' states; what is gone is left out", async (t) => {
  const d = deps(createFakeEngine())
  const s = spec()
  const fps = s.questions.map((q) => q.fingerprint)
  const batch = batchRecord({ model: 'jev-test' })
  const hi = stateHash({ message: 'hi' })
  d.store.recordBatch(batch, [
    { key: 'k1', stateHash: hi, fingerprints: fps },
    { key: 'k2', stateHash: 'gone', fingerprints: fps },
    { key: 'k3', stateHash: stateHash({ message: 'yo' }), fingerprints: ['reworded'] },
  ])
  const rows = ['hi', 'yo', 'hi'].map((message, i) => ({ row: { message }, where: `row ${i}` }))
  const items = await rebuildItems(app(d), d, [s], { kind: 'rows', rows }, batch)
  t.same(
    items.map((i) => i.key),
    ['k1'],
  )
  t.same(items[0].request.state, { message: 'hi' })
  t.equal(items[0].request.questions.length, 3)
  const other = await rebuildItems(app(d), d, [s], { kind: 'rows', rows }, { ...batch, model: 'jev-other' })
  t.same(other, [], "a state asked of another model is not this batch's")
})
