import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { fitMigration } from '../../../src/adapters/sqlite/sqlite-fit-migration.ts'
import { MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the fit step is step 8 of the schema', async (t) => {
  t.equal(fitMigration(12).version, 12)
  const step = MIGRATIONS.find((m) => m.sql === fitMigration(m.version).sql)
  t.equal(step?.version, 8)
})

t.test('a store from before the step keeps its answers and runs, which read as of unknown fit', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  for (const step of MIGRATIONS.filter((m) => m.version <= 6)) db.exec(step.sql)
  db.exec('PRAGMA user_version = 6')
  db.exec(`INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes',
    0.9, 0.8, '{"yes":0.9,"no":0.1}', '2025-01-01T00:00:00', 7, 'jev-1.0.3')`)
  db.exec(`INSERT INTO _judge_runs (run_id, judgment, spec_hash, git_sha, model, rows, asked, cost, status, started_at, finished_at, cached, requests, seq)
    VALUES ('r1', 'spam', 'h', '', 'jev-1', 1, 1, 0, 'complete', '2025-01-01T00:00:00', '2025-01-01T00:00:01', 0, 1, 1)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.optionMass, null)
  t.same(store.getRun('r1')?.fit, {})
})
