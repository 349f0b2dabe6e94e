import t from 'tap'
import { batchesOf, cancelBatch } from '../../../src/app/batch/batches.ts'
import { app, deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createFakeBatchLane } from '../../helpers/fake-batch-lane.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'
import { project, spec } from '../../helpers/specs.ts'

t.test('batches are listed per judgment; a pending one is cancelled at the provider and recorded so', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine)
  const d = deps(Object.assign(engine, { batch: lane }))
  const p = project(spec())
  const made = await lane.create('file-1', batchRecord().tag)
  d.store.recordBatch(batchRecord({ batchId: made.id, state: 'in_progress' }), [])
  d.store.recordBatch(batchRecord({ tag: 'done', batchId: 'batch_0', landedAt: '2026-01-01T00:00:00.000' }), [])
  d.store.recordBatch(batchRecord({ tag: 'early' }), [])
  t.equal(batchesOf(app(d), p, undefined).length, 3)
  const cancelled = await cancelBatch(app(d), p, made.id)
  t.match(cancelled, { state: 'cancelling', batchId: made.id })
  t.match(
    d.store.listBatches().find((b) => b.tag === batchRecord().tag),
    { state: 'cancelling' },
  )
  await t.rejects(cancelBatch(app(d), p, 'batch_x'), { name: 'UsageError', message: /no batch batch_x/ })
  await t.rejects(cancelBatch(app(d), p, 'batch_0'), { message: /not pending/ })
  await t.rejects(cancelBatch(app(d), p, 'early'), { message: /not pending/ })
  const plain = deps(createFakeEngine(), d.store)
  await t.rejects(cancelBatch(app(plain), p, made.id), { message: /no batch API/ })
})

t.test('a folder without a store has no batches', async (t) => {
  const a = { ...app(deps(null)), existingStore: () => null }
  t.same(batchesOf(a, project(spec()), undefined), [])
})
