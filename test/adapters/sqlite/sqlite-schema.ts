import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import {
  configure,
  migrate,
  MIGRATIONS,
  SCHEMA_VERSION,
  userVersion,
} from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { pragma } from '../../helpers/pragma.ts'

const tables = (db: DatabaseSync) =>
  db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name)

t.test('the migrations count up from 1, each above the one before, and the schema version is the last', async (t) => {
  t.equal(MIGRATIONS[0].version, 1)
  t.ok(
    MIGRATIONS.every((m, i) => i === 0 || m.version > MIGRATIONS[i - 1].version),
    'each step above the one before',
  )
  t.equal(SCHEMA_VERSION, MIGRATIONS.at(-1)!.version)
})

t.test('a new database is migrated to the current version, with every table, in one step', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  t.equal(userVersion(db), 0, 'a new database is at version 0')
  migrate(db, ':memory:')
  t.equal(userVersion(db), SCHEMA_VERSION)
  t.same(tables(db), [
    '_judge_answer_tally',
    '_judge_answers',
    '_judge_batch_items',
    '_judge_batches',
    '_judge_candidates',
    '_judge_forgotten',
    '_judge_kept',
    '_judge_leases',
    '_judge_meta',
    '_judge_model_checks',
    '_judge_model_pairs',
    '_judge_open_runs',
    '_judge_pace',
    '_judge_pace_cuts',
    '_judge_reasks',
    '_judge_run_labels',
    '_judge_run_states',
    '_judge_runs',
    '_judge_shadows',
    '_judge_spend',
    '_judge_states',
  ])
  t.notOk(db.isTransaction)
  migrate(db, ':memory:')
  t.equal(userVersion(db), SCHEMA_VERSION, 'migrating a current database does nothing')
})

t.test(
  'a connection is configured for several processes: WAL, a busy timeout, foreign keys, deletes overwritten',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const db = new DatabaseSync(file)
    t.teardown(() => db.close())
    configure(db)
    const get = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]
    t.equal(get('journal_mode'), 'wal')
    t.equal(get('busy_timeout'), 5000)
    t.equal(get('foreign_keys'), 1)
    t.equal(get('synchronous'), 1, 'NORMAL')
    t.equal(get('secure_delete'), 1, 'deleted rows are overwritten with zeros (docs/privacy.md)')
  },
)

t.test('a store written by a newer version is refused, naming the file, and left as it was', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
  db.close()
  const error = t.throws(() => openSqliteStore(file), {
    name: 'StoreError',
    trouble: 'newer',
    status: 503,
    exitCode: 2,
  }) as Error
  t.ok(error.message.startsWith(`${file}: `), 'the message starts with the file')
  t.match(error.message, /newer/)
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION + 1)
  t.equal(pragma(file, 'schema_version'), 0, 'no table was created')
})

t.test('a migration that fails leaves the store at its old version', async (t) => {
  const db = new DatabaseSync(':memory:')
  db.exec('CREATE TABLE _judge_answers (x)')
  t.throws(() => migrate(db, 'test.sqlite'), /already exists/)
  t.equal(userVersion(db), 0)
  t.notOk(db.isTransaction)
  db.close()
})

t.test('a switch to WAL refused at once as locked is tried again; any other error is not', async (t) => {
  const calls: string[] = []
  let refusals = 2
  const db = {
    exec(sql: string) {
      calls.push(sql)
      if (sql === 'PRAGMA journal_mode = WAL' && refusals-- > 0) throw new Error('database is locked')
    },
  } as unknown as DatabaseSync
  configure(db)
  t.equal(calls.filter((s) => s === 'PRAGMA journal_mode = WAL').length, 3, 'two refusals, then the switch')
  t.equal(calls.at(-1), 'PRAGMA secure_delete = ON', 'and the rest of the settings')
  const broken = {
    exec: (sql: string) => {
      if (sql.includes('journal_mode')) throw new Error('disk I/O error')
    },
  } as unknown as DatabaseSync
  t.throws(() => configure(broken), /disk I\/O error/)
})
