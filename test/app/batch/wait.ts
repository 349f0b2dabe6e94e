import t from 'tap'
import { waitForBatches } from '../../../src/app/batch/wait.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createFakeBatchLane } from '../../helpers/fake-batch-lane.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'

t.test('polls with backoff until every batch ends, recording each poll', async (t) => {
  const store = createMemoryStore()
  const lane = createFakeBatchLane(createFakeEngine(), { polls: 3 })
  const a = await lane.create('file-1', 'a')
  const b = await lane.create('file-2', 'b')
  store.recordBatch(batchRecord({ tag: 'a', batchId: a.id }), [])
  store.recordBatch(batchRecord({ tag: 'b', batchId: b.id, createdAt: '2026-01-02T00:00:00.000' }), [])
  await lane.retrieve(a.id)
  const slept: number[] = []
  const polls: number[] = []
  const last = await waitForBatches(store, lane, store.listBatches(), {
    pollMs: 10,
    sleep: async (ms) => void slept.push(ms),
    now: () => '2026-01-01T00:05:00.000',
    onPoll: (f) => polls.push(f.ended),
  })
  t.same(slept, [10, 20])
  t.same(polls, [0, 1, 2], 'a batch ended is polled no more')
  t.equal(lane.calls.filter((c) => c === `retrieve ${a.id}`).length, 3)
  t.same(
    [...last.values()].map((s) => s.state),
    ['completed', 'completed'],
  )
  t.ok(store.listBatches().every((r) => r.state === 'completed' && r.updatedAt === '2026-01-01T00:05:00.000'))
  const none = await waitForBatches(store, lane, [], { pollMs: 1, sleep: async () => {}, now: () => '' })
  t.equal(none.size, 0, 'no batches: nothing to wait for')
})
