import t from 'tap'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { connectReadOnly, openStoreFile } from '../../../src/adapters/sqlite/sqlite-open.ts'
import { SCHEMA_VERSION, userVersion } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { StoreError } from '../../../src/store-error.ts'
import { mountProblem, mountTmpfs, remount } from '../../helpers/mounts.ts'

const CANNOT_MOUNT = mountProblem() ?? false

/** A store at the current version with one table of its own, made at `file`, then closed. */
function makeStore(file: string, version = SCHEMA_VERSION): void {
  const { db } = openStoreFile(file)
  db.exec(`CREATE TABLE kept_here (x); INSERT INTO kept_here VALUES (42); PRAGMA user_version = ${version}`)
  db.close()
}

const answer = (db: DatabaseSync) => (db.prepare('SELECT x FROM kept_here').get() as { x: number }).x

t.test('a store that can be written is opened for writing, made with its folders when missing', async (t) => {
  const file = join(t.testdir(), 'deep', '.judge', 'store.sqlite')
  const opened = openStoreFile(file)
  t.teardown(() => opened.db.close())
  t.equal(opened.readOnly, null)
  t.equal(userVersion(opened.db), SCHEMA_VERSION)
  t.ok(existsSync(file))
})

t.test(
  'a store on a read-only mount is opened read-only, saying why, and reads work',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const dir = mountTmpfs(t, 1 << 20)
    const file = join(dir, 'store.sqlite')
    makeStore(file)
    remount(dir, 'ro')
    const opened = openStoreFile(file)
    t.teardown(() => opened.db.close())
    t.equal(opened.readOnly, `${file} is not writable (EROFS)`)
    t.equal(answer(opened.db), 42)
    t.notOk(existsSync(`${file}-shm`), 'nothing was made beside it')
    t.throws(() => opened.db.exec('INSERT INTO kept_here VALUES (1)'), /readonly/, 'and SQLite itself refuses writes')
  },
)

t.test(
  'a read-only store at an older schema version cannot be upgraded where it is, and says so',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const dir = mountTmpfs(t, 1 << 20)
    const file = join(dir, 'store.sqlite')
    makeStore(file, SCHEMA_VERSION - 1)
    remount(dir, 'ro')
    const error = t.throws(() => openStoreFile(file)) as StoreError
    t.ok(error instanceof StoreError)
    t.match(error, {
      trouble: 'read-only',
      message: `${file} is read-only (${file} is not writable (EROFS)) and at schema version ${SCHEMA_VERSION - 1}, older than the version ${SCHEMA_VERSION} this judge reads: open it once where it can be written, which upgrades it`,
    })
  },
)

t.test('a read-only store written by a newer judge is refused as newer', { skip: CANNOT_MOUNT }, async (t) => {
  const dir = mountTmpfs(t, 1 << 20)
  const file = join(dir, 'store.sqlite')
  makeStore(file, SCHEMA_VERSION + 1)
  remount(dir, 'ro')
  t.throws(() => openStoreFile(file), { name: 'StoreError', trouble: 'newer', message: /newer than the version/ })
})

t.test(
  'a store missing from a read-only mount, or a text file there, cannot be opened, naming the file',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const dir = mountTmpfs(t, 1 << 20)
    mkdirSync(join(dir, '.judge'))
    writeFileSync(
      join(dir, 'notes.sqlite'),
      'some notes, not a database at all, long enough to have a header\n'.repeat(10),
    )
    remount(dir, 'ro')
    const missing = join(dir, '.judge', 'store.sqlite')
    t.throws(() => openStoreFile(missing), {
      name: 'StoreError',
      trouble: 'cannot open',
      message: `${missing}: cannot open the store`,
    })
    t.throws(() => openStoreFile(join(dir, 'notes.sqlite')), { name: 'StoreError', trouble: 'not a store' })
  },
)

t.test("a folder in the store's place cannot be opened, naming it", async (t) => {
  const file = join(t.testdir({ 'store.sqlite': {} }), 'store.sqlite')
  t.throws(() => openStoreFile(file), {
    name: 'StoreError',
    trouble: 'cannot open',
    message: `${file}: cannot open the store (unable to open database file)`,
  })
})

t.test(
  'a read-only connection reads through the -shm file where one can be made, and gives the first error when none opens',
  async (t) => {
    const file = join(t.testdir(), 'store.sqlite')
    makeStore(file)
    const db = connectReadOnly(file, (db) => answer(db))
    t.teardown(() => db.close())
    t.equal(answer(db), 42)
    t.ok(existsSync(`${file}-shm`), 'the plain read-only connection was taken')
    let probes = 0
    t.throws(
      () =>
        connectReadOnly(file, () => {
          probes++
          throw new Error(`probe ${probes} failed`)
        }),
      /probe 1 failed/,
    )
    t.equal(probes, 2, 'the immutable connection was tried too')
    t.throws(
      () =>
        connectReadOnly(file, () => {
          throw new StoreError(file, 'newer', 'too new')
        }),
      /too new/,
      'a StoreError from the probe is final',
    )
  },
)
