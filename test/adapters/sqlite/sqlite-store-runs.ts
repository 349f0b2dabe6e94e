import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { runMethods } from '../../../src/adapters/sqlite/sqlite-store-runs.ts'
import { count, run } from '../../helpers/contracts/run-store.ts'
import { check } from '../../helpers/contracts/run-store.ts'

/** The run methods over a migrated in-memory database, with a transaction that counts its uses. */
function runs(t: Test, transaction: (work: () => void) => void = (work) => work()) {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  const used = { transactions: 0 }
  const methods = runMethods(prepareStatements(db), (work) => {
    used.transactions += 1
    transaction(work)
  })
  return { methods, used }
}

const states = [
  { stateHash: 'a', rows: 2 },
  { stateHash: 'b', rows: 1 },
]

t.test('every write runs in the transaction it is given; reads run none', async (t) => {
  const { methods, used } = runs(t)
  methods.recordRun(run(), [count(run().run_id, 'is_spam', 'yes', 4)], states)
  methods.recordModelCheck(check({ run_id: run().run_id }))
  t.equal(used.transactions, 2, 'one per write, however many rows it writes')
  methods.listRuns(['spam'], 50)
  methods.latestRuns()
  methods.runLabelCounts('spam')
  methods.runStates(run().run_id, '', 10)
  methods.sameRunStates(run().run_id, run().run_id)
  methods.modelChecks('spam')
  t.equal(used.transactions, 2)
})

t.test('a write whose transaction does not run it saves nothing', async (t) => {
  const { methods } = runs(t, () => {})
  methods.recordRun(run(), [count(run().run_id, 'is_spam', 'yes', 4)], states)
  t.same(methods.listRuns(['spam'], 50), [])
  t.same(methods.runStates(run().run_id, '', 10), [])
})

t.test('a run comes back as a plain object with the fields in the order of a run record', async (t) => {
  const { methods } = runs(t)
  methods.recordRun(run(), [])
  const [listed] = methods.listRuns(['spam'], 50)
  t.equal(Object.getPrototypeOf(listed), Object.prototype)
  t.equal(JSON.stringify(listed), JSON.stringify(run()), 'it serializes exactly as the record written')
})

t.test("label counts come with their run's rows, start and provenance; states with their rows", async (t) => {
  const { methods } = runs(t)
  methods.recordRun(
    run(),
    [count(run().run_id, 'is_spam', 'yes', 4, 1, 16), count(run().run_id, 'is_spam', 'no', 6)],
    states,
  )
  const of = {
    rows: 10,
    started_at: run().started_at,
    status: 'complete',
    command: 'run',
    source: 'messages.csv',
    reported_model: 'jev-1.0.3',
  }
  t.same(methods.runLabelCounts('spam'), [
    { run_id: run().run_id, question: 'is_spam', label: 'yes', count: 4, states: 1, squares: 16, ...of },
    { run_id: run().run_id, question: 'is_spam', label: 'no', count: 6, states: null, squares: null, ...of },
  ])
  t.same(methods.runStates(run().run_id, '', 10), states)
  t.ok(methods.sameRunStates(run().run_id, run().run_id))
})
