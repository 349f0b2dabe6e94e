import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { routesMigration } from '../../../src/adapters/sqlite/sqlite-routes-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { run } from '../../helpers/contracts/run-store.ts'

t.test('the routes step is step 15 of the schema', async (t) => {
  t.equal(routesMigration(16).version, 16)
  t.equal(MIGRATIONS.find((m) => m.sql === routesMigration(m.version).sql)?.version, 15)
})

t.test('a run recorded before the step reads with no routes; runs recorded after keep theirs', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const before = openSqliteStore(file)
  before.recordRun(run({ run_id: 'r-old' }), [])
  before.close()
  const db = new DatabaseSync(file)
  db.exec('ALTER TABLE _judge_runs DROP COLUMN routes')
  db.exec('PRAGMA user_version = 14')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.same(store.getRun('r-old')?.routes, {})
  store.recordRun(run({ run_id: 'r-new', routes: { is_spam: { block: 2 } } }), [])
  t.same(store.getRun('r-new')?.routes, { is_spam: { block: 2 } })
})
