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
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 14)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 14')
  db.exec(`INSERT INTO _judge_runs (run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at,
    finished_at, cached, requests, seq) VALUES ('r-old', 'spam', 'h', '', 'jev-1', 1, 1, 0, 'complete',
    '2025-01-01T00:00:00', '2025-01-01T00:00:01', 0, 1, 1)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.same(store.getRun('r-old')?.routes, {})
  store.recordRun(run({ run_id: 'r-new', routes: { is_spam: { block: 2 } } }), [])
  t.same(store.getRun('r-new')?.routes, { is_spam: { block: 2 } })
})
