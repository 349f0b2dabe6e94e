import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { migrate, MIGRATIONS } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { runProvenanceMigration } from '../../../src/adapters/sqlite/sqlite-provenance-migration.ts'
import { SQL } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('the provenance step is one numbered step of the schema, after the answers were keyed by state', async (t) => {
  t.equal(runProvenanceMigration(7).version, 7)
  const step = MIGRATIONS.find((m) => m.sql === runProvenanceMigration(m.version).sql)
  t.ok(step, 'the schema holds the step')
  t.ok(step!.version > 2)
})

t.test(
  'a store of runs and answers from before the step keeps them; the model asked stands in for the one reported',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    db.exec('BEGIN')
    for (const step of MIGRATIONS.filter((m) => m.version <= 2)) db.exec(step.sql)
    db.exec('PRAGMA user_version = 2')
    db.exec(`INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes',
    0.9, 0.8, '{"yes":0.9,"no":0.1}', '2025-01-01T00:00:00', 7)`)
    for (const id of ['r1', 'r2']) {
      db.exec(`INSERT INTO _judge_runs VALUES ('${id}', 'spam', 'h', '', 'jev-1', 10, 3, 0.1, 'complete',
      '2025-01-0${id[1]}T00:00:00', '2025-01-0${id[1]}T00:00:01', 7, 1)`)
    }
    db.exec('COMMIT')
    db.close()
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.reportedModel, 'jev-1')
    const [r2, r1] = store.listRuns(['spam'], 10)
    t.match(r1, {
      run_id: 'r1',
      command: '',
      source: '',
      source_hash: '',
      node: '',
      reported_model: '',
      states: 0,
      fingerprints: {},
    })
    t.equal(r2.run_id, 'r2')
    store.recordRun({ ...r1, run_id: 'r3', started_at: '2025-01-03T00:00:00' }, [], [{ stateHash: 'state-0', rows: 2 }])
    t.same(
      store.runStates('r3', '', 5),
      [{ stateHash: 'state-0', rows: 2 }],
      'a new run numbered after the old ones keeps its states',
    )
    t.same(store.runStates('r1', '', 5), [])
  },
)

t.test("a run's states and a sample of them are read by the primary key", async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  const plan = (sql: string) =>
    db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail)
      .join('\n')
  t.match(plan(SQL.runStatesFrom), /SEARCH _judge_run_states USING PRIMARY KEY \(run=\? AND state_hash>\?\)/)
  t.notMatch(plan(SQL.runStatesFrom), /TEMP B-TREE/)
  t.match(plan(SQL.deleteAnswers), /USING INDEX _judge_answers_sample \(model=\? AND fingerprint=\?\)/)
})
