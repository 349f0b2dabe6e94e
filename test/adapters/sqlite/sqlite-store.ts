import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { SCHEMA_VERSION } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { StoreError } from '../../../src/store-error.ts'
import { STORE_METHODS } from '../../../src/adapters/sqlite/sqlite-store-groups.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { storeContract } from '../../helpers/contracts/store.ts'
import { run } from '../../helpers/contracts/run-store.ts'
import { pragma } from '../../helpers/pragma.ts'
import { damagePages } from '../../helpers/damage.ts'
import { mountProblem, mountTmpfs, remount } from '../../helpers/mounts.ts'

const CANNOT_MOUNT = mountProblem() ?? false

const STORE_MODULE = pathToFileURL(join(import.meta.dirname, '../../../src/adapters/sqlite/sqlite-store.ts')).href

await storeContract(t, 'the SQLite store in memory keeps the Store contract', () => openSqliteStore(':memory:'))

const contractDir = t.testdir()
let opened = 0
await storeContract(t, 'the SQLite store on disk keeps the Store contract', () =>
  openSqliteStore(join(contractDir, `store-${opened++}.sqlite`)),
)

await storeContract(t, 'the SQLite store on disk with batched reads keeps the Store contract', () =>
  openSqliteStore(join(contractDir, `store-${opened++}.sqlite`), { batchReads: true }),
)

await storeContract(t, 'the SQLite store with batched reads and answers kept in memory keeps the Store contract', () =>
  openSqliteStore(join(contractDir, `store-${opened++}.sqlite`), { batchReads: true, cachedStates: 2 }),
)

t.test('the write mark moves when another connection commits, from the next turn with batched reads', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const batched = openSqliteStore(file, { batchReads: true })
  const other = openSqliteStore(file)
  t.teardown(() => (batched.close(), other.close()))
  const mark = batched.writeMark()
  other.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
  t.equal(batched.writeMark(), mark, 'the same turn reads the same snapshot, and the mark with it')
  await new Promise((resolve) => setImmediate(resolve))
  const moved = batched.writeMark()
  t.not(moved, mark, 'the next turn sees the other commit')
  other.keptRows('spam')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(batched.writeMark(), moved, "another connection's reads leave it")
})

t.test('with batched reads, every read of the port shares the turn, a run and the open runs among them', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const batched = openSqliteStore(file, { batchReads: true })
  const other = openSqliteStore(file)
  t.teardown(() => (batched.close(), other.close()))
  const turn = () => new Promise((resolve) => setImmediate(resolve))
  const reads = [() => batched.getRun('20250101T000000-a1'), () => batched.openRuns().length]
  const writes = [
    () => other.recordRun(run(), []),
    () => other.putOpenRun({ run: run({ run_id: 'r-open' }), counts: [], pid: 1, host: 'h', heartbeat_at: 'x' }),
  ]
  for (const [i, read] of reads.entries()) {
    await turn()
    const before = read()
    writes[i]()
    t.same(read(), before, `read ${i + 1}: the same turn reads the same snapshot`)
    await turn()
    t.notSame(read(), before, `read ${i + 1}: the next turn sees the other commit`)
  }
  await turn()
  t.equal(batched.heldRows('spam', Date.now()).length, 0)
  other.holdRows(
    'spam',
    'ann',
    [{ question: 'is_spam', stateHash: 'a', card: '{}' }],
    Date.now(),
    Date.now() + 60_000,
    1,
  )
  t.equal(batched.heldRows('spam', Date.now()).length, 1, 'holds are read under the write lock: seen at once')
})

t.test('the store has exactly the methods the port classifies, and close', async (t) => {
  const store = openSqliteStore(':memory:')
  t.teardown(() => store.close())
  t.same(Object.keys(store).sort(), [...Object.keys(STORE_METHODS), 'close'].sort())
})

t.test(
  "with batched reads, the store reads its own writes at once and another connection's from the next turn",
  async (t) => {
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
  },
)

t.test(
  'a file damaged under an open store gives a StoreError naming it, ends every transaction, and serves again once put right',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    const writer = openSqliteStore(file)
    for (let i = 0; i < 200; i++)
      writer.putAnswers([answer({ stateHash: `state-${i}` })], `state-${i}`, { message: `message ${i} `.repeat(30) })
    writer.close()
    const store = openSqliteStore(file, { batchReads: true })
    t.teardown(() => store.close())
    t.equal(store.countAnswers('jev-1', 'fp-spam'), 200)
    await new Promise((resolve) => setImmediate(resolve))
    const damage = damagePages(file)
    const error = t.throws(() => store.getStates(['state-7', 'state-150'])) as StoreError
    t.ok(error instanceof StoreError)
    t.match(error, {
      trouble: 'damaged',
      file,
      message: `${file} is damaged (database disk image is malformed): stop every judge process on it`,
    })
    // The turn's read transaction ends from setImmediate: a throw there would end the process.
    await new Promise((resolve) => setImmediate(resolve))
    t.throws(
      () => store.putAnswers([answer({ stateHash: 'state-new' })], 'state-new', { message: 'new' }),
      { name: 'StoreError', trouble: 'damaged' },
      'a write meets it too, and rolls back',
    )
    damage.restore()
    t.equal(store.getStates(['state-7', 'state-150']).size, 2, 'the pages read while damaged are read again')
    store.putAnswers([answer({ stateHash: 'state-new' })], 'state-new', { message: 'new' })
    t.equal(store.countAnswers('jev-1', 'fp-spam'), 201)
  },
)

t.test('a store on a read-only mount reads, and refuses every write saying why', { skip: CANNOT_MOUNT }, async (t) => {
  const dir = mountTmpfs(t, 4 << 20)
  const file = join(dir, 'store.sqlite')
  const writer = openSqliteStore(file)
  writer.putAnswers([answer()], 'state-0', { message: 'hi' })
  writer.close()
  remount(dir, 'ro')
  const store = openSqliteStore(file, { batchReads: true })
  t.teardown(() => store.close())
  t.same(store.getAnswers('jev-1', 'state-0', ['fp-spam']).get('fp-spam'), answer())
  const why = `${file} is read-only (${file} is not writable (EROFS)): nothing can be saved in it, and reading it works`
  t.throws(() => store.putAnswers([answer({ stateHash: 'state-1' })], 'state-1', { message: 'ho' }), {
    name: 'StoreError',
    trouble: 'read-only',
    message: why,
  })
  t.throws(() => store.recordRun(run(), []), { name: 'StoreError', trouble: 'read-only' })
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 1, 'and reads still work after')
})

t.test(
  'a full disk says how many answers this store saved before it filled, and a write after space is freed succeeds',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const dir = mountTmpfs(t, 1 << 20)
    const file = join(dir, 'store.sqlite')
    const store = openSqliteStore(file)
    t.teardown(() => store.close())
    let saved = 0
    let error: unknown = null
    for (; saved < 10_000 && error === null; saved++) {
      try {
        store.putAnswers([answer({ stateHash: `state-${saved}` })], `state-${saved}`, {
          message: `message ${saved} `.repeat(40),
        })
      } catch (caught) {
        error = caught
        saved--
      }
    }
    t.match(error, {
      name: 'StoreError',
      trouble: 'full',
      message: `${file}: the disk is full, nothing more can be saved: free space and run again: ${saved} answers are kept`,
    })
    t.equal(store.countAnswers('jev-1', 'fp-spam'), saved, 'every answer counted is in the store')
    store.close()
    const reopened = openSqliteStore(file)
    t.teardown(() => reopened.close())
    t.equal(reopened.countAnswers('jev-1', 'fp-spam'), saved, 'and stays there')
  },
)

t.test('opening a store creates its folder and a WAL database at the current schema version', async (t) => {
  const file = join(t.testdir(), 'project', '.judge', 'store.sqlite')
  openSqliteStore(file).close()
  t.ok(existsSync(file))
  t.equal(pragma(file, 'journal_mode'), 'wal')
  t.equal(pragma(file, 'user_version'), SCHEMA_VERSION)
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

t.test('closing a store twice is harmless', async (t) => {
  const store = openSqliteStore(':memory:')
  store.close()
  t.doesNotThrow(() => store.close())
})

t.test('a file that is not a database is refused as not a store, naming the file', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  writeFileSync(file, 'not a database, just some text that is long enough to have a header\n'.repeat(20))
  const error = t.throws(() => openSqliteStore(file)) as StoreError
  t.ok(error instanceof StoreError)
  t.match(error, { trouble: 'not a store', file, status: 503, exitCode: 2 })
  t.match(error.message, `${file} is not a judge store (file is not a database): move it away, or set JUDGE_STORE`)
})

t.test('a store whose folder cannot be made is refused, naming the file', async (t) => {
  const dir = t.testdir({ blocker: 'a file where a folder should be' })
  const file = join(dir, 'blocker', '.judge', 'store.sqlite')
  t.throws(() => openSqliteStore(file), {
    name: 'StoreError',
    trouble: 'cannot open',
    message: `${file}: cannot open the store (ENOTDIR`,
  })
})

t.test('a write that fails midway saves none of it', async (t) => {
  const store = openSqliteStore(':memory:')
  t.teardown(() => store.close())
  const broken = { ...answer({ fingerprint: 'fp-topic' }), label: undefined as unknown as string }
  t.throws(() => store.putAnswers([answer(), broken], 'state-0', { message: 'hi' }))
  t.equal(store.countAnswers('jev-1', 'fp-spam'), 0)
  t.equal(store.getStates(['state-0']).size, 0)
  t.throws(() =>
    store.recordRun(run(), [{ run_id: 'x', question: 'is_spam', label: 'yes', count: null as unknown as number }]),
  )
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
  t.same(
    reader.keptRows('spam').map((row) => row.state),
    [{ message: 'hi' }],
  )
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
