import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { paceCutsMigration } from '../../../src/adapters/sqlite/sqlite-pace-cuts-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the pace-cuts step is step 12 of the schema', async (t) => {
  t.equal(paceCutsMigration(13).version, 13)
  t.equal(MIGRATIONS.find((m) => m.sql === paceCutsMigration(m.version).sql)?.version, 12)
})

t.test(
  'a store from before the step keeps its pace, starts with no cut, and keeps the cuts made after it',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    db.exec('BEGIN')
    for (const step of MIGRATIONS.filter((m) => m.version <= 11)) db.exec(step.sql)
    db.exec('PRAGMA user_version = 11')
    db.exec(`INSERT INTO _judge_pace (key, next_at) VALUES ('e', 9000)`)
    db.exec('COMMIT')
    db.close()
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    t.equal(store.reservePace('e', 1000, 0, Infinity).at, 9000)
    t.equal(store.paceCut('e'), null)
    t.same(store.cutPace('e', { at: 2000, ceiling: 600 }, 1500), { at: 2000, ceiling: 600 })
    t.same(store.paceCut('e'), { at: 2000, ceiling: 600 })
  },
)
