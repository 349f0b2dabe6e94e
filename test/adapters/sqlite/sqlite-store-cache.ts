import t, { type Test } from 'tap'
import { DatabaseSync } from 'node:sqlite'
import { migrate } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { prepareStatements } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { cacheMethods } from '../../../src/adapters/sqlite/sqlite-store-cache.ts'

/** The cache methods over a migrated in-memory database holding answers, with a transaction that counts its uses. */
function cache(t: Test, transaction: (work: () => void) => void = (work) => work()) {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  const sql = prepareStatements(db)
  for (const [fp, hash, at] of [
    ['old', 'h1', '2025-01-01T00:00:00'],
    ['old', 'h2', '2025-01-03T00:00:00'],
    ['new', 'h1', '2025-01-02T00:00:00'],
  ]) {
    sql.putAnswer.run('m', fp, hash, 'spam', 'is_spam', 'yes', 0.9, 0.8, '{"yes":0.9,"no":0.1}', at, 7, 'm')
  }
  const used = { transactions: 0 }
  const methods = cacheMethods(sql, (work) => {
    used.transactions += 1
    transaction(work)
  })
  return { methods, used }
}

t.test('groups count answers per first asker, model and fingerprint, oldest and newest', async (t) => {
  const { methods, used } = cache(t)
  t.same(
    methods.answerGroups(),
    [
      {
        judgment: 'spam',
        question: 'is_spam',
        model: 'm',
        fingerprint: 'old',
        answers: 2,
        oldest: '2025-01-01T00:00:00',
        newest: '2025-01-03T00:00:00',
      },
      {
        judgment: 'spam',
        question: 'is_spam',
        model: 'm',
        fingerprint: 'new',
        answers: 1,
        oldest: '2025-01-02T00:00:00',
        newest: '2025-01-02T00:00:00',
      },
    ],
    'the most recently asked first',
  )
  t.equal(used.transactions, 0, 'reading runs no transaction')
})

t.test('deleting a group runs in one transaction and says how many went', async (t) => {
  const { methods, used } = cache(t)
  t.equal(methods.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'm', fingerprint: 'old' }), 2)
  t.equal(used.transactions, 1)
  t.same(
    methods.answerGroups().map((g) => g.fingerprint),
    ['new'],
  )
  const idle = cache(t, () => {})
  t.equal(
    idle.methods.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'm', fingerprint: 'old' }),
    0,
    'a transaction that does not run deletes nothing',
  )
  t.equal(idle.methods.answerGroups().length, 2)
})
