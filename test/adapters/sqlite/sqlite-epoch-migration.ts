import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { answersEpochMigration } from '../../../src/adapters/sqlite/sqlite-epoch-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the epoch step is one numbered step of the schema, after the provenance step', async (t) => {
  t.equal(answersEpochMigration(9).version, 9)
  const step = MIGRATIONS.find((m) => m.sql === answersEpochMigration(m.version).sql)
  t.ok(step, 'the schema holds the step')
  t.ok(step!.version > 5)
})

t.test('a store from before the step keeps its answers, and gains the meta table at epoch 0', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 5)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 5')
  db.exec(`INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes',
    0.9, 0.8, '{"yes":0.9,"no":0.1}', '2025-01-01T00:00:00', 7, 'jev-1.0.3')`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 1, 'the answers stay')
  t.equal(store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 1)
  store.close()
  const opened = new DatabaseSync(file)
  t.teardown(() => opened.close())
  t.same(
    opened
      .prepare('SELECT key, value FROM _judge_meta')
      .all()
      .map((row) => ({ ...row })),
    [{ key: 'answers_epoch', value: 0 }],
    "nothing moves it any more: the write mark is the store's one staleness signal",
  )
})
