import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openRunsMigration } from '../../../src/adapters/sqlite/sqlite-open-runs-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the open runs step is step 10 of the schema', async (t) => {
  t.equal(openRunsMigration(12).version, 12)
  const step = MIGRATIONS.find((m) => m.sql === openRunsMigration(m.version).sql)
  t.equal(step?.version, 10)
})

t.test('a store from before the step keeps its runs and has no run still going', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 9)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 9')
  db.exec(`INSERT INTO _judge_runs (run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at, finished_at, cached, requests, seq)
    VALUES ('r1', 'spam', 'h', '', 'jev-1', 1, 1, 0, 'complete', '2025-01-01T00:00:00', '2025-01-01T00:00:01', 0, 1, 1)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(store.getRun('r1')?.status, 'complete')
  t.same(store.openRuns(), [])
})
