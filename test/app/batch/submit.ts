import t from 'tap'
import { createIntentRecorder, ensureSubmitted, recordIntents } from '../../../src/app/batch/submit.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createFakeBatchLane } from '../../helpers/fake-batch-lane.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'
import { spec } from '../../helpers/specs.ts'

const s = spec()
const item = (m: string) => ({
  key: `k-${m}`,
  request: { model: 'jev-1', state: { message: m }, questions: s.questions },
})
const now = () => '2026-01-01T00:01:00.000'
const itemsOf = async () => [item('a')]
const intent = { judgment: 'spam', runId: 'run-1', model: 'jev-1', price: 0.5, now: '2026-01-01T00:00:00.000' }

t.test('a batch per pack is recorded with its items before anything is uploaded', async (t) => {
  const store = createMemoryStore()
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine, { perPack: 2 })
  t.same(recordIntents(store, engine, lane, [], intent), [])
  const subs = recordIntents(store, engine, lane, ['a', 'b', 'c'].map(item), intent)
  t.equal(subs.length, 2)
  t.same(lane.calls, [], 'nothing uploaded yet')
  const listed = store.listBatches()
  t.equal(listed.length, 2)
  t.match(listed[0], { state: 'recorded', runId: 'run-1', batchId: null, inputFileId: null })
  t.ok(listed.every((b) => b.estimate > 0))
  t.same(
    store.batchEntries(subs[0].batch.tag).map((e) => e.key),
    ['k-a', 'k-b'],
  )
})

t.test('a new batch is uploaded and created, each step recorded', async (t) => {
  const store = createMemoryStore()
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine)
  const [sub] = recordIntents(store, engine, lane, [item('a')], intent)
  const batch = await ensureSubmitted(store, lane, sub, itemsOf, now)
  t.same(lane.calls, ['upload 1', 'create file-1'], 'no look-up for a batch this run recorded')
  t.match(store.listBatches()[0], { batchId: 'batch_1', inputFileId: 'file-1', state: 'validating' })
  t.equal(batch.batchId, 'batch_1')
  t.equal(
    await ensureSubmitted(store, lane, { ...sub, batch }, itemsOf, now),
    batch,
    'a created batch is left as it is',
  )
})

t.test('a recorded batch is first looked for by its tag, then created or uploaded as far as it got', async (t) => {
  const engine = createFakeEngine()
  t.test('found: recorded, nothing sent again', async (t) => {
    const store = createMemoryStore()
    const lane = createFakeBatchLane(engine)
    const made = await lane.create('file-9', batchRecord().tag)
    store.recordBatch(batchRecord(), [])
    await ensureSubmitted(store, lane, { batch: batchRecord(), recovering: true }, itemsOf, now)
    t.same(lane.calls.slice(1), [`find ${batchRecord().tag}`])
    t.match(store.listBatches()[0], { batchId: made.id, inputFileId: 'file-9' })
  })
  t.test('uploaded, not created: created from its file', async (t) => {
    const store = createMemoryStore()
    const lane = createFakeBatchLane(engine)
    const batch = batchRecord({ inputFileId: 'file-7', state: 'uploaded' })
    store.recordBatch(batch, [])
    await ensureSubmitted(store, lane, { batch, recovering: true }, itemsOf, now)
    t.same(lane.calls, [`find ${batch.tag}`, 'create file-7'])
  })
  t.test('never uploaded: uploaded and created', async (t) => {
    const store = createMemoryStore()
    const lane = createFakeBatchLane(engine)
    store.recordBatch(batchRecord(), [])
    await ensureSubmitted(store, lane, { batch: batchRecord(), recovering: true }, itemsOf, now)
    t.same(lane.calls, [`find ${batchRecord().tag}`, 'upload 1', 'create file-2'])
  })
  t.test('never uploaded, its rows gone: dropped', async (t) => {
    const store = createMemoryStore()
    const lane = createFakeBatchLane(engine)
    store.recordBatch(batchRecord(), [])
    const batch = await ensureSubmitted(store, lane, { batch: batchRecord(), recovering: true }, async () => [], now)
    t.match(batch, { state: 'dropped', landedAt: now() })
    t.match(store.listBatches()[0], { state: 'dropped', landedAt: now() })
  })
})

t.test('batches are recorded as items come, holding only the open pack and the items since', async (t) => {
  const store = createMemoryStore()
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine, { perPack: 3 })
  const packed: number[] = []
  const counting = {
    ...lane,
    pack: (items: Parameters<typeof lane.pack>[0]) => (packed.push(items.length), lane.pack(items)),
  }
  const recorder = createIntentRecorder(store, engine, counting, intent, 4)
  const letters = 'abcdefghij'.split('')
  for (const m of letters.slice(0, 4)) recorder.add(item(m))
  t.equal(store.listBatches().length, 1, 'a full pack is recorded before the items end')
  for (const m of letters.slice(4)) recorder.add(item(m))
  const subs = recorder.finish()
  t.same(
    subs.map((s) =>
      store
        .batchEntries(s.batch.tag)
        .map((e) => e.key.slice(2))
        .join(''),
    ),
    ['abc', 'def', 'ghi', 'j'],
  )
  t.ok(
    subs.every((s) => !('items' in s)),
    'a submission keeps its entries in the store, not its items',
  )
  t.ok(Math.max(...packed) <= 4, `at most 4 items packed at once (${packed.join(', ')})`)
})
