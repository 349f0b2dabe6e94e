import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { labelStatesMigration } from '../../../src/adapters/sqlite/sqlite-label-states-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the label-states step is step 11 of the schema', async (t) => {
  t.equal(labelStatesMigration(12).version, 12)
  t.equal(MIGRATIONS.find((m) => m.sql === labelStatesMigration(m.version).sql)?.version, 11)
})

t.test(
  "a store from before the step keeps its runs' label counts, read with unknown states and Σ m², and records them for new runs",
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    db.exec('BEGIN')
    for (const step of MIGRATIONS.filter((m) => m.version <= 10)) db.exec(step.sql)
    db.exec('PRAGMA user_version = 10')
    db.exec(`INSERT INTO _judge_runs (run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at, finished_at, cached, requests, seq)
    VALUES ('r1', 'spam', 'h', '', 'jev-1', 10, 1, 0, 'complete', '2025-01-01T00:00:00', '2025-01-01T00:00:01', 0, 1, 1)`)
    db.exec(`INSERT INTO _judge_run_labels VALUES ('r1', 'is_spam', 'yes', 10)`)
    db.exec('COMMIT')
    db.close()
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    t.match(store.runLabelCounts('spam'), [{ run_id: 'r1', label: 'yes', count: 10, states: null, squares: null }])
    const run = { ...store.getRun('r1')!, run_id: 'r2', started_at: '2025-01-02T00:00:00' }
    store.recordRun(run, [{ run_id: 'r2', question: 'is_spam', label: 'yes', count: 10, states: 1, squares: 100 }])
    t.match(store.runLabelCounts('spam')[1], { run_id: 'r2', count: 10, states: 1, squares: 100 })
  },
)
