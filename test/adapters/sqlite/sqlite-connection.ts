import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { configure, SCHEMA_VERSION, userVersion } from '../../../src/adapters/sqlite/sqlite-connection.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'

t.test(
  "the schema version a store opens at is the last migration's, known without loading the migrations",
  async (t) => {
    t.equal(
      SCHEMA_VERSION,
      MIGRATIONS.at(-1)!.version,
      'a migration appended raises SCHEMA_VERSION in sqlite-connection.ts',
    )
  },
)

t.test('a new file is at version 0, and the version read is the one written', async (t) => {
  const db = new DatabaseSync(join(t.testdir(), 'store.sqlite'))
  t.teardown(() => db.close())
  configure(db)
  t.equal(userVersion(db), 0)
  db.exec('PRAGMA user_version = 7')
  t.equal(userVersion(db), 7)
  t.equal(Object.values(db.prepare('PRAGMA journal_mode').get() ?? {})[0], 'wal')
})
