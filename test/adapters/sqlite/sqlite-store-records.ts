import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { recordMethods } from '../../../src/adapters/sqlite/sqlite-store-records.ts'
import { pair } from '../../helpers/contracts/kept-store.ts'

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

const candidate = {
  judgment: 'spam-v2',
  specHash: 'c1',
  question: 'is_spam',
  fingerprint: 'fp',
  seenAt: '2025-01-01T00:00:00',
}

t.test('every write runs in the transaction it is given; reads run none', async (t) => {
  const { methods, used } = records(t)
  methods.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  methods.recordShadow([pair(), pair({ question: 'topic' })], [candidate])
  t.equal(used.transactions, 2, 'one per write, however many rows it writes')
  methods.keptRows('spam')
  methods.shadowPairs('spam')
  methods.candidateQuestions()
  t.equal(used.transactions, 2)
})

t.test('a write whose transaction does not run it saves nothing', async (t) => {
  const { methods } = records(t, () => {})
  methods.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  methods.recordShadow([pair()], [candidate])
  t.same(methods.keptRows('spam'), [])
  t.same(methods.shadowPairs('spam'), [])
  t.same(methods.candidateQuestions(), [])
})

t.test('kept rows come with their state parsed; shadow pairs and candidates as written', async (t) => {
  const { methods } = records(t)
  methods.keepRow('spam', 'state-0', { message: 'hi, "you"' }, '2025-01-01T00:00:00')
  t.same(methods.keptRows('spam'), [
    {
      judgment: 'spam',
      stateHash: 'state-0',
      state: { message: 'hi, "you"' },
      firstSeen: '2025-01-01T00:00:00',
      lastSeen: '2025-01-01T00:00:00',
      seen: 1,
    },
  ])
  methods.recordShadow([pair()], [candidate])
  t.same(methods.shadowPairs('spam'), [pair()])
  t.same(methods.candidateQuestions(), [candidate])
})
