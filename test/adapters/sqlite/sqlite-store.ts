import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { migrate, MIGRATIONS, SCHEMA_VERSION, userVersion } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { SQL } from '../../../src/adapters/sqlite/sqlite-statements.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { JudgeError } from '../../../src/errors.ts'
import { answer, storeContract } from '../../helpers/store-contract.ts'
import { run } from '../../helpers/store-contract-records.ts'

const STORE_MODULE = pathToFileURL(join(import.meta.dirname, '../../../src/adapters/sqlite/sqlite-store.ts')).href

/** Reads one PRAGMA of a file through a connection of its own. */
function pragma(file: string, name: string): unknown {
  const db = new DatabaseSync(file)
  try {
    return Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]
  } finally {
    db.close()
  }
}

await storeContract(t, 'the SQLite store in memory keeps the Store contract', () => openSqliteStore(':memory:'))

const contractDir = t.testdir()
let opened = 0
await storeContract(t, 'the SQLite store on disk keeps the Store contract',
  () => openSqliteStore(join(contractDir, `store-${opened++}.sqlite`)))

await storeContract(t, 'the SQLite store on disk with batched reads keeps the Store contract',
  () => openSqliteStore(join(contractDir, `store-${opened++}.sqlite`), { batchReads: true }))

t.test('with batched reads, the store reads its own writes at once and another connection\'s from the next turn', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const batched = openSqliteStore(file, { batchReads: true })
  const other = openSqliteStore(file)
  t.teardown(() => (batched.close(), other.close()))
  t.equal(batched.countAnswers('jev-1', 'fp-spam'), 0)
  batched.putAnswers([answer()], 'state-0', { message: 'hi' })
  t.equal(batched.countAnswers('jev-1', 'fp-spam'), 1, 'its own write ends the snapshot')
  other.putAnswers([answer({ stateHash: 'state-1' })], 'state-1', { message: 'ho' })
  t.equal(batched.countAnswers('jev-1', 'fp-spam'), 1, 'the same turn reads the same snapshot')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(batched.countAnswers('jev-1', 'fp-spam'), 2, 'the next turn sees the other commit')
})

t.test('a store at schema version 1 is migrated with its answers kept and keyed by state first', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec('BEGIN')
  db.exec(MIGRATIONS[0].sql)
  db.exec('PRAGMA user_version = 1')
  db.exec(`INSERT INTO _judge_answers VALUES ('jev-1', 'fp-spam', 'state-0', 'spam', 'is_spam', 'yes',
    0.9, 0.8, '{"yes":0.9,"no":0.1}', '2025-01-01T00:00:00', 7)`)
  db.exec('COMMIT')
  db.close()
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION)
  t.same(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.distribution, { yes: 0.9, no: 0.1 })
  store.putAnswers([answer({ stateHash: 'state-0', label: 'no' })], 'state-0', { message: 'hi' })
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 1, 'writing the key again replaces the answer')
  t.equal(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam')?.label, 'no')
  t.same(store.sampleAnswers('jev-1', 'fp-spam', 'spam', 'is_spam', 5).map((a) => a.stateHash), ['state-0'])
})

t.test('opening a store creates its folder and a WAL database at the current schema version', async (t) => {
  const file = join(t.testdir(), 'project', '.judge', 'store.sqlite')
  openSqliteStore(file).close()
  t.ok(existsSync(file))
  t.equal(pragma(file, 'journal_mode'), 'wal')
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION)
  const db = new DatabaseSync(file)
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all()
  db.close()
  t.same(tables.map((row) => row.name), ['_judge_answers', '_judge_candidates', '_judge_kept',
    '_judge_model_checks', '_judge_model_pairs', '_judge_run_labels', '_judge_run_states', '_judge_runs',
    '_judge_shadows', '_judge_states'])
})

t.test('a reopened store keeps everything written before', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const first = openSqliteStore(file)
  first.putAnswers([answer()], 'state-0', { message: 'hi' })
  first.recordRun(run(), [])
  first.close()
  const second = openSqliteStore(file)
  t.teardown(() => second.close())
  t.same(second.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), answer())
  t.same(second.listRuns(['spam'], 50), [run()])
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION)
})

t.test('a store written by a newer version is refused, naming the file, and left as it was', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
  db.close()
  const error = t.throws(() => openSqliteStore(file), { name: 'JudgeError' }) as Error
  t.ok(error.message.startsWith(`${file}: `), 'the message starts with the file')
  t.match(error.message, /newer/)
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION + 1)
  t.equal(pragma(file, 'schema_version'), 0, 'no table was created')
})

t.test('closing a store twice is harmless', async (t) => {
  const store = openSqliteStore(':memory:')
  store.close()
  t.doesNotThrow(() => store.close())
})

t.test('a file that is not a database is refused, naming the file', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  writeFileSync(file, 'not a database, just some text that is long enough to have a header\n'.repeat(20))
  const error = t.throws(() => openSqliteStore(file)) as JudgeError
  t.ok(error instanceof JudgeError)
  t.match(error.message, `${file}: cannot open the store`)
})

t.test('a store whose folder cannot be made is refused, naming the file', async (t) => {
  const dir = t.testdir({ blocker: 'a file where a folder should be' })
  const file = join(dir, 'blocker', '.judge', 'store.sqlite')
  t.throws(() => openSqliteStore(file), { name: 'InternalError', message: `${file}: cannot open the store` })
})

t.test('a migration that fails leaves the store at its old version', async (t) => {
  const db = new DatabaseSync(':memory:')
  db.exec('CREATE TABLE _judge_answers (x)')
  t.throws(() => migrate(db, 'test.sqlite'), /already exists/)
  t.equal(userVersion(db), 0)
  t.notOk(db.isTransaction)
  db.close()
})

t.test('a write that fails midway saves none of it', async (t) => {
  const store = openSqliteStore(':memory:')
  t.teardown(() => store.close())
  const broken = { ...answer({ fingerprint: 'fp-topic' }), label: undefined as unknown as string }
  t.throws(() => store.putAnswers([answer(), broken], 'state-0', { message: 'hi' }))
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 0)
  t.equal(store.getStates(['state-0']).size, 0)
  t.throws(() => store.recordRun(run(), [{ run_id: 'x', question: 'is_spam', label: 'yes', count: null as unknown as number }]))
  t.same(store.listRuns(['spam'], 50), [])
  store.putAnswers([answer()], 'state-0', { message: 'hi' })
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 1, 'the store still takes writes')
})

t.test('data written through one connection is read through another', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const writer = openSqliteStore(file)
  const reader = openSqliteStore(file)
  t.teardown(() => (writer.close(), reader.close()))
  t.equal(reader.countAnswers('jev-1', 'fp-spam'), 0)
  writer.putAnswers([answer()], 'state-0', { message: 'hi' })
  writer.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  t.equal(reader.countAnswers('jev-1', 'fp-spam'), 1)
  t.same(reader.keptRows('spam').map((row) => row.state), [{ message: 'hi' }])
})

/** Starts a process that writes `n` answers, kept rows and runs to `file`, tagged with `tag`. */
function writer(file: string, tag: string, n: number): Promise<number | null> {
  const code = `
    const { openSqliteStore } = await import(${JSON.stringify(STORE_MODULE)})
    const store = openSqliteStore(${JSON.stringify(file)})
    for (let i = 0; i < ${n}; i++) {
      const hash = '${tag}-' + i
      const answer = { model: 'jev-1', fingerprint: 'fp-spam', stateHash: hash, judgment: 'spam',
        question: 'is_spam', distribution: { yes: 1, no: 0 }, label: 'yes', p: 1, margin: 1,
        askedAt: '2025-01-01T00:00:00', reportedModel: 'jev-1' }
      store.putAnswers([answer], hash, { message: hash })
      store.keepRow('spam', hash, { message: hash }, '2025-01-01T00:00:00')
      store.recordRun({ run_id: hash, judgment: 'spam', spec_hash: 's', git_sha: '', model: 'jev-1',
        rows: 1, asked: 1, cost: 0, status: 'complete', started_at: hash, finished_at: hash,
        cached: 0, requests: 1, command: 'run', source: 'd.csv', source_hash: '', node: 'spam',
        reported_model: 'jev-1', states: 1, fingerprints: {} },
        [{ run_id: hash, question: 'is_spam', label: 'yes', count: 1 }], [{ stateHash: hash, rows: 1 }])
    }
    store.close()`
  const child = spawn(process.execPath, ['--no-warnings', '--input-type=module', '-e', code], { stdio: 'inherit' })
  return new Promise((resolve) => child.on('exit', resolve))
}

t.test('two processes creating and writing one store at once lose nothing', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  t.same(await Promise.all([writer(file, 'a', 300), writer(file, 'b', 300)]), [0, 0])
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 600)
  t.equal(store.keptRows('spam').length, 600)
  t.equal(store.listRuns(['spam'], 1000).length, 600)
  t.equal(store.runLabelCounts('spam').length, 600)
  t.same(store.runStates('a-7', '', 10), [{ stateHash: 'a-7', rows: 1 }], 'each run numbered apart, with its states')
  t.same(store.runStates('b-299', '', 10), [{ stateHash: 'b-299', rows: 1 }])
})

t.test('answers, states and kept rows are read by index, and the queue lists without sorting', async (t) => {
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  migrate(db, ':memory:')
  const plan = (sql: string) => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => row.detail).join('\n')
  t.match(plan(SQL.getAnswers), /SEARCH a USING PRIMARY KEY \(model=\? AND state_hash=\?\)/)
  t.match(plan(SQL.answersForStates), /SEARCH a USING PRIMARY KEY \(model=\? AND state_hash=\? AND fingerprint=\?\)/)
  t.match(plan(SQL.getStates), /SEARCH s USING PRIMARY KEY \(state_hash=\?\)/)
  t.match(plan(SQL.sampleAnswers), /USING INDEX _judge_answers_sample/)
  t.match(plan(SQL.sampleBand), /USING INDEX _judge_answers_sample/, 'a stratum is read in rank order, its margins off the index')
  t.match(plan(SQL.countBand), /USING COVERING INDEX _judge_answers_margin \(.*margin>\? AND margin<\?\)/)
  for (const sql of [SQL.sampleAnswers, SQL.sampleBand, SQL.keptRows]) t.notMatch(plan(sql), /TEMP B-TREE/)
})
