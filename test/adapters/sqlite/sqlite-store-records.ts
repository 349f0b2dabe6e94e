import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { recordMethods } from '../../../src/adapters/sqlite/sqlite-store-records.ts'
import { count, pair, run } from '../../helpers/store-contract-records.ts'

/** The record methods over a migrated in-memory database, with a transaction that counts its uses. */
function records(t: Test, transaction: (work: () => void) => void = (work) => work()) {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  const used = { transactions: 0 }
  const methods = recordMethods(prepareStatements(db), (work) => {
    used.transactions += 1
    transaction(work)
  })
  return { methods, used }
}

t.test('every write runs in the transaction it is given; reads run none', async (t) => {
  const { methods, used } = records(t)
  methods.recordRun(run(), [count(run().run_id, 'is_spam', 'yes', 4)])
  methods.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  methods.recordShadow([pair(), pair({ question: 'topic' })])
  t.equal(used.transactions, 3, 'one per write, however many rows it writes')
  methods.listRuns(['spam'], 50)
  methods.runLabelCounts('spam')
  methods.keptRows('spam')
  methods.shadowPairs('spam')
  t.equal(used.transactions, 3)
})

t.test('a write whose transaction does not run it saves nothing', async (t) => {
  const { methods } = records(t, () => {})
  methods.recordRun(run(), [count(run().run_id, 'is_spam', 'yes', 4)])
  methods.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  methods.recordShadow([pair()])
  t.same(methods.listRuns(['spam'], 50), [])
  t.same(methods.keptRows('spam'), [])
  t.same(methods.shadowPairs('spam'), [])
})

t.test('a run comes back as a plain object with the fields in the order of a run record', async (t) => {
  const { methods } = records(t)
  methods.recordRun(run(), [])
  const [listed] = methods.listRuns(['spam'], 50)
  t.equal(Object.getPrototypeOf(listed), Object.prototype)
  t.equal(JSON.stringify(listed), JSON.stringify(run()), 'it serializes exactly as the record written')
})

t.test('label counts come with their run\'s rows and start; kept rows with their state parsed', async (t) => {
  const { methods } = records(t)
  methods.recordRun(run(), [count(run().run_id, 'is_spam', 'yes', 4), count(run().run_id, 'is_spam', 'no', 6)])
  t.same(methods.runLabelCounts('spam'), [
    { run_id: run().run_id, question: 'is_spam', label: 'yes', count: 4, rows: 10, started_at: run().started_at },
    { run_id: run().run_id, question: 'is_spam', label: 'no', count: 6, rows: 10, started_at: run().started_at },
  ])
  methods.keepRow('spam', 'state-0', { message: 'hi, "you"' }, '2025-01-01T00:00:00')
  t.same(methods.keptRows('spam'), [{ judgment: 'spam', stateHash: 'state-0', state: { message: 'hi, "you"' }, firstSeen: '2025-01-01T00:00:00', lastSeen: '2025-01-01T00:00:00', seen: 1 }])
  methods.recordShadow([pair()])
  t.same(methods.shadowPairs('spam'), [pair()])
})
