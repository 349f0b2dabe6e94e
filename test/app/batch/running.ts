import t from 'tap'
import { runningOf } from '../../../src/app/batch/running.ts'
import { app, deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'
import { project, spec } from '../../helpers/specs.ts'

t.test("the running runs are those of the selected judgments' pending batches", async (t) => {
  const d = deps(createFakeEngine())
  const p = project(spec())
  d.store.recordBatch(batchRecord({ batchId: 'batch_1', state: 'in_progress', total: 3 }), [])
  d.store.recordBatch(batchRecord({ tag: 'other', judgment: 'tone', runId: 'r-tone' }), [])
  t.match(runningOf(app(d), p, undefined), [{ batches: ['batch_1'], status: 'running', total: 3 }])
  t.equal(runningOf(app(d), p, undefined).length, 1, 'a judgment the path does not select is left out')
})

t.test('a folder without a store has no running runs', async (t) => {
  const a = { ...app(deps(null)), existingStore: () => null }
  t.same(runningOf(a, project(spec()), undefined), [])
})
