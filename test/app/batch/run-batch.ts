import t from 'tap'
import { runBatch } from '../../../src/app/batch/run-batch.ts'
import { app, deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createFakeBatchLane } from '../../helpers/fake-batch-lane.ts'
import { project, spec } from '../../helpers/specs.ts'
import type { SourcedRow } from '../../../src/core/types.ts'
import { juryProject, jurySpec } from '../../helpers/jury-project.ts'

const rows = (...messages: string[]): SourcedRow[] =>
  messages.map((message, i) => ({ row: { message }, where: `row ${i}` }))
const s = spec()
const input = (over = {}) => ({
  project: project(s),
  specs: [s],
  source: { kind: 'rows' as const, rows: rows('a', 'b', 'c', 'a') },
  cap: 1,
  price: 0.021,
  wait: true,
  pollMs: 1,
  sleep: async () => {},
  ...over,
})

t.test('an engine without a batch lane is refused before anything is planned', async (t) => {
  await t.rejects(runBatch(app(deps(createFakeEngine())), input()), { name: 'UsageError', message: /no batch API/ })
})

t.test('a jury is refused before anything is planned or submitted', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine)
  const d = deps(Object.assign(engine, { batch: lane }))
  await t.rejects(runBatch(app(d), input({ project: juryProject, specs: [jurySpec] })), {
    name: 'UsageError',
    message: /names a jury \(models:\).*without --batch/,
  })
  t.same(lane.calls, [], 'nothing submitted')
  t.same(d.store.listBatches(['spam']), [], 'nothing recorded')
})

t.test('items split across packs land, one run recorded per judgment at the batch price', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine, { perPack: 2, polls: 2 })
  const d = deps(Object.assign(engine, { batch: lane }))
  const polls: number[] = []
  const result = await runBatch(app(d), input({ onPoll: (f: { completed: number }) => polls.push(f.completed) }))
  t.equal(result.batches.length, 2)
  t.ok(result.batches.every((b) => b.landedAt !== null))
  t.match(result.runs, [{ judgment: 'spam', rows: 4, asked: 9, cached: 0, status: 'complete' }])
  t.equal(result.runs[0].run_id, result.batches[0].runId, 'the run is recorded under the id its batches carry')
  t.equal(polls.length, 2)
  t.equal(engine.calls.length, 3, 'each item answered once')
  const again = await runBatch(app(d), input({ wait: false }))
  t.same(again.batches, [], 'nothing left to submit: counted and recorded at once')
  t.match(again.runs, [{ asked: 0, cached: 9, status: 'complete' }])
})

t.test('--no-wait records and returns; the next run collects without submitting again', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine)
  const d = deps(Object.assign(engine, { batch: lane }))
  const first = await runBatch(app(d), input({ wait: false }))
  t.same(first.runs, [])
  t.match(first.batches, [{ batchId: 'batch_1', landedAt: null }])
  const second = await runBatch(app(d), input())
  t.equal(lane.calls.filter((c) => c.startsWith('create')).length, 1)
  t.match(second.runs, [{ asked: 9, status: 'complete', run_id: first.batches[0].runId }])
})

t.test('items that got no answer leave the run failed, saying how many and why', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine, {
    outcome: (i) => (i.request.state.message === 'b' ? { key: i.key, ok: false, reason: 'expired' } : undefined),
  })
  const d = deps(Object.assign(engine, { batch: lane }))
  const result = await runBatch(app(d), input())
  t.equal(result.failed, 1)
  t.equal(result.failures, '1 expired')
  t.equal(result.unanswered, 1)
  t.match(result.runs[0].status, /^failed: 1 item unanswered in the batch \(1 expired\); 1 row without every answer/)
})

t.test('a big submission is recorded pack by pack, and each batch made again from the rows alone', async (t) => {
  const engine = createFakeEngine()
  const lane = createFakeBatchLane(engine, { perPack: 1000 })
  const packed: number[] = []
  const counting = {
    ...lane,
    pack: (items: Parameters<typeof lane.pack>[0]) => (packed.push(items.length), lane.pack(items)),
  }
  const d = deps(Object.assign(engine, { batch: counting }))
  const many = rows(...Array.from({ length: 10_000 }, (_, i) => `m${i}`))
  const result = await runBatch(app(d), input({ source: { kind: 'rows' as const, rows: many }, cap: 1000 }))
  t.equal(result.batches.length, 10)
  t.match(result.runs, [{ rows: 10_000, asked: 30_000, status: 'complete' }])
  t.ok(Math.max(...packed) < 10_000, `never every item packed at once (${Math.max(...packed)} at most)`)
  t.equal(lane.calls.filter((c) => c === 'upload 1000').length, 10, "each upload packs its batch's items alone")
})

t.test(
  'the batches due are made again from one read of the rows for their uploads and one for their landings',
  async (t) => {
    const engine = createFakeEngine()
    const lane = createFakeBatchLane(engine, { perPack: 1 })
    const d = deps(Object.assign(engine, { batch: lane }))
    let reads = 0
    const listed = rows('a', 'b', 'c', 'a')
    const counted = Object.assign([...listed], {
      [Symbol.iterator]: () => (reads++, listed[Symbol.iterator]()),
    })
    const result = await runBatch(app(d), input({ source: { kind: 'rows' as const, rows: counted } }))
    t.equal(result.batches.length, 3)
    t.match(result.runs, [{ rows: 4, asked: 9, status: 'complete' }])
    t.equal(reads, 5, 'the plan, the submission, the uploads, the landings and the count: one read each')
  },
)
