import t from 'tap'
import { pendingKey } from '../../../src/core/batch/items.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { app, deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createItemsOf, pendingBatches, pendingQuestions, rebuildItems } from '../../../src/app/batch/pending.ts'
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

t.test('the batches due are made again together, as many as hold the entries allowed in all', async (t) => {
  const d = deps(createFakeEngine())
  const s = spec()
  const fps = s.questions.map((q) => q.fingerprint)
  const batches = ['a', 'b', 'c'].map((tag) => batchRecord({ tag, model: 'jev-test' }))
  batches.forEach((batch, i) =>
    d.store.recordBatch(
      batch,
      [`${i}x`, `${i}y`].map((message) => ({ key: message, stateHash: stateHash({ message }), fingerprints: fps })),
    ),
  )
  let reads = 0
  const listed = ['0x', '0y', '1x', '1y', '2x', '2y'].map((message, i) => ({ row: { message }, where: `row ${i}` }))
  const rows = Object.assign([...listed], { [Symbol.iterator]: () => (reads++, listed[Symbol.iterator]()) })
  const itemsOf = createItemsOf(app(d), d, [s], { kind: 'rows', rows }, batches, 4)
  const keys = async (tag: string) => (await itemsOf(batches.find((b) => b.tag === tag)!)).map((i) => i.key)
  t.same(await keys('a'), ['0x', '0y'])
  t.same(await keys('b'), ['1x', '1y'])
  t.equal(reads, 1, 'a and b from one read: their 4 entries are allowed together')
  t.same(await keys('c'), ['2x', '2y'])
  t.equal(reads, 2, 'c from a read of its own')
  t.same(await keys('a'), ['0x', '0y'], 'a batch asked for again is made again')
  t.equal(reads, 3)
})
