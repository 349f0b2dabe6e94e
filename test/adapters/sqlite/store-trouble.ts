import t from 'tap'
import { DatabaseSync } from 'node:sqlite'
import {
  BUSY_TIMEOUT_MS,
  isReadOnlyCode,
  quoted,
  sqliteCode,
  storeErrorOf,
} from '../../../src/adapters/sqlite/store-trouble.ts'
import { UsageError } from '../../../src/errors.ts'
import { StoreError } from '../../../src/store-error.ts'

const FILE = '/srv/data/.judge/store.sqlite'

/** An error shaped as node:sqlite raises them, with SQLite's extended result code. */
function sqliteError(errcode: number, message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_SQLITE_ERROR', errcode, errstr: message })
}

t.test("the primary result code is read off node:sqlite's extended code; other errors have none", async (t) => {
  t.equal(sqliteCode(sqliteError(11, 'database disk image is malformed')), 11)
  t.equal(sqliteCode(sqliteError(522, 'disk I/O error')), 10, 'SQLITE_IOERR_SHORT_READ is an I/O error')
  t.equal(sqliteCode(new Error('plain')), null)
  t.equal(sqliteCode(null), null)
  const db = new DatabaseSync(':memory:')
  t.teardown(() => db.close())
  const real = t.throws(() => db.exec('SELECT * FROM missing'))
  t.equal(sqliteCode(real), 1, 'a real error of node:sqlite carries its code')
})

t.test('a damaged file or a failed disk names the file and how to get a store back', async (t) => {
  for (const [code, detail] of [
    [11, 'database disk image is malformed'],
    [266, 'disk I/O error'],
  ] as const) {
    const error = storeErrorOf(FILE, sqliteError(code, detail)) as StoreError
    t.ok(error instanceof StoreError)
    t.match(error, { trouble: 'damaged', file: FILE, status: 503, exitCode: 2, context: { sqlite: code & 0xff } })
    t.equal(
      error.message,
      `${FILE} is damaged (${detail}): stop every judge process on it, then restore it from a backup, ` +
        `or recover what is left with sqlite3 ${FILE} ".recover" | sqlite3 recovered.sqlite and put recovered.sqlite in its place`,
    )
  }
})

t.test('a full disk says to free space and how many answers are kept', async (t) => {
  const full = sqliteError(13, 'database or disk is full')
  t.equal(
    (storeErrorOf(FILE, full, { keptAnswers: 12000 }) as StoreError).message,
    `${FILE}: the disk is full, nothing more can be saved: free space and run again: 12000 answers are kept`,
  )
  t.match(storeErrorOf(FILE, full, { keptAnswers: 1 }), { trouble: 'full', message: /: 1 answer is kept$/ })
  t.match(storeErrorOf(FILE, full), { message: /: 0 answers are kept$/ })
})

t.test('a write to a read-only store says why it is read-only, and that reading works', async (t) => {
  const readOnly = sqliteError(8, 'attempt to write a readonly database')
  const error = storeErrorOf(FILE, readOnly, { readOnly: `${FILE} is not writable (EROFS)` }) as StoreError
  t.match(error, {
    trouble: 'read-only',
    message: `${FILE} is read-only (${FILE} is not writable (EROFS)): nothing can be saved in it, and reading it works`,
  })
  t.match(
    storeErrorOf(FILE, readOnly),
    { message: `${FILE} is read-only (SQLite: attempt to write a readonly database)` },
    "without a known reason, SQLite's",
  )
})

t.test('a lock waited out names the file, the other writer and the busy timeout', async (t) => {
  const error = storeErrorOf(FILE, sqliteError(5, 'database is locked'), {
    holder: (file) => `pid 42: node judge.js run (${file === FILE})`,
  })
  t.match(error, { trouble: 'locked' })
  t.equal(
    (error as StoreError).message,
    `${FILE} stayed locked by another writer (pid 42: node judge.js run (true)) past the busy timeout of ${BUSY_TIMEOUT_MS / 1000} s; nothing was saved: try again once it is done`,
  )
  t.match(
    storeErrorOf(FILE, sqliteError(517, 'database is locked')),
    { trouble: 'locked', message: /another writer \(another process\)/ },
    'the system is asked when no holder is given',
  )
})

t.test('a file that is no database is not a store; one that cannot be opened says so', async (t) => {
  t.match(storeErrorOf(FILE, sqliteError(26, 'file is not a database')), {
    trouble: 'not a store',
    message: `${FILE} is not a judge store (file is not a database): move it away, or set JUDGE_STORE to the store file`,
  })
  t.match(storeErrorOf(FILE, sqliteError(14, 'unable to open database file')), {
    trouble: 'cannot open',
    message: `${FILE}: cannot open the store (unable to open database file): check`,
  })
  t.match(storeErrorOf(FILE, sqliteError(3, 'access permission denied')), { trouble: 'cannot open' })
})

t.test("any other error is not the file's and is passed on as it is, unless the store was being opened", async (t) => {
  const constraint = sqliteError(1299, 'NOT NULL constraint failed: _judge_answers.label')
  t.equal(storeErrorOf(FILE, constraint), constraint)
  const bug = new TypeError('x is undefined')
  t.equal(storeErrorOf(FILE, bug), bug)
  const usage = new UsageError('bad flag')
  t.equal(storeErrorOf(FILE, usage, {}, true), usage, 'a JudgeError stays what it is')
  t.match(storeErrorOf(FILE, bug, {}, true), {
    trouble: 'cannot open',
    message: `${FILE}: cannot open the store (x is undefined)`,
    cause: bug,
  })
  t.match(storeErrorOf(FILE, 'a string', {}, true), { message: /\(a string\)/ })
})

t.test('the codes of a file that can only be read', async (t) => {
  t.same([3, 8, 14].map(isReadOnlyCode), [true, true, true])
  t.same([null, 1, 5, 11, 13, 26].map(isReadOnlyCode), [false, false, false, false, false, false])
})

t.test('a path is quoted for the shell when it holds more than plain characters', async (t) => {
  t.equal(quoted('/srv/a-b_c/.judge/store.sqlite'), '/srv/a-b_c/.judge/store.sqlite')
  t.equal(quoted('/srv/my data/store.sqlite'), "'/srv/my data/store.sqlite'")
  t.equal(quoted("/srv/it's/store.sqlite"), "'/srv/it'\\''s/store.sqlite'")
  t.match(storeErrorOf('/srv/my data/store.sqlite', sqliteError(11, 'malformed')), {
    message: /sqlite3 '\/srv\/my data\/store.sqlite' ".recover"/,
  })
})
