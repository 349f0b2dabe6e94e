import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { leasesMigration } from '../../../src/adapters/sqlite/sqlite-leases-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the leases step is step 14 of the schema', async (t) => {
  t.equal(leasesMigration(15).version, 15)
  t.equal(MIGRATIONS.find((m) => m.sql === leasesMigration(m.version).sql)?.version, 14)
})

t.test('a store from before the step keeps its data and starts with no hold', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 12)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 12')
  db.exec(`INSERT INTO _judge_pace (key, next_at) VALUES ('e', 9000)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(store.reservePace('e', 1000, 0, Infinity).at, 9000)
  t.same(store.heldRows('spam', 0), [])
  t.same([...store.holdRows('spam', 'ann', [{ question: 'q', stateHash: 'h', card: '{}' }], 0, 10, 1)], ['q\0h'])
})
