import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { BASE_MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-base-migrations.ts'
import { MIGRATIONS, SCHEMA_VERSION } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { pragma } from '../../helpers/pragma.ts'

t.test('the base steps are the first of the schema, numbered from 1', async (t) => {
  t.same(
    BASE_MIGRATIONS.map((m) => m.version),
    [1, 2, 3, 4],
  )
  t.same(MIGRATIONS.slice(0, BASE_MIGRATIONS.length), BASE_MIGRATIONS)
})

t.test('a store at schema version 1 is migrated with its answers kept and keyed by state first', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  db.exec(BASE_MIGRATIONS[0].sql)
  db.exec('PRAGMA user_version = 1')
  db.exec(`INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes',
    0.9, 0.8, '{"yes":0.9,"no":0.1}', '2025-01-01T00:00:00', 7)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION)
  t.same(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.distribution, { yes: 0.9, no: 0.1 })
  store.putAnswers([answer({ stateHash: 'state-0', label: 'no' })], 'state-0', { message: 'hi' })
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 1, 'the key is still one answer')
  t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.label, 'yes', 'the migrated answer stands')
  t.same(
    store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 5).map((a) => a.stateHash),
    ['state-0'],
  )
})
