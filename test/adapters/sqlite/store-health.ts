import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { SCHEMA_VERSION } from '../../../src/adapters/sqlite/sqlite-schema.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { storeHealth } from '../../../src/adapters/sqlite/store-health.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { damagePages } from '../../helpers/damage.ts'
import { mountProblem, mountTmpfs, remount } from '../../helpers/mounts.ts'

const CANNOT_MOUNT = mountProblem() ?? false

/** A store holding `n` answers at `file`, closed. */
function makeStore(file: string, n = 200): void {
  const store = openSqliteStore(file)
  for (let i = 0; i < n; i++)
    store.putAnswers([answer({ stateHash: `state-${i}` })], `state-${i}`, {
      message: `message number ${i} `.repeat(20),
    })
  store.close()
}

t.test('a sound store that can be written is ok, and the check changes nothing in it', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  makeStore(file)
  t.same(storeHealth(file), { file, state: 'ok', message: '', reads: true, writes: true })
  t.same(storeHealth(file, { pages: false }).state, 'ok')
})

t.test('a store not made yet is missing; its first write makes it, where its folder can be written', async (t) => {
  const file = join(t.testdir(), '.judge', 'store.sqlite')
  t.same(storeHealth(file), {
    file,
    state: 'missing',
    message: `${file} does not exist yet: the first write makes it`,
    reads: false,
    writes: true,
  })
})

t.test('damaged pages are found by reading every page, not by reading the schema alone', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  makeStore(file)
  damagePages(file)
  const health = storeHealth(file)
  t.match(health, {
    state: 'damaged',
    reads: false,
    writes: false,
    message: new RegExp(`^${file} is damaged \\(.+\\): stop every judge process on it, then restore it from a backup`),
  })
})

t.test('a text file, a folder and a newer store are each named for what they are', async (t) => {
  const dir = t.testdir({
    'notes.sqlite': 'not a database, only some text long enough to have a header\n'.repeat(10),
    'folder.sqlite': {},
  })
  t.match(storeHealth(join(dir, 'notes.sqlite')), {
    state: 'not a store',
    reads: false,
    message: /is not a judge store \(file is not a database\)/,
  })
  t.match(storeHealth(join(dir, 'folder.sqlite')), {
    state: 'not a store',
    message: `${join(dir, 'folder.sqlite')} is not a file: move it away`,
  })
  const newer = join(dir, 'newer.sqlite')
  const db = new DatabaseSync(newer)
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
  db.close()
  t.match(storeHealth(newer), { state: 'newer', message: /upgrade judge/ })
})

t.test('a store whose disk has too little room is full: reads work, writes do not', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  makeStore(file, 1)
  t.same(storeHealth(file, { freeBytes: () => 4096 }), {
    file,
    state: 'full',
    reads: true,
    writes: false,
    message: `${file}: the disk is full (4096 bytes free): free space; reads work, and writes fail until then`,
  })
  t.equal(storeHealth(file, { freeBytes: () => 4096, minFreeBytes: 1024 }).state, 'ok')
})

t.test('a store on a read-only mount is read-only: reads work, writes do not', { skip: CANNOT_MOUNT }, async (t) => {
  const dir = mountTmpfs(t, 8 << 20)
  const file = join(dir, 'store.sqlite')
  makeStore(file, 20)
  const old = join(dir, 'old.sqlite')
  new DatabaseSync(old).close()
  writeFileSync(join(dir, 'readme.txt'), 'x')
  remount(dir, 'ro')
  t.match(storeHealth(file), {
    state: 'read-only',
    reads: true,
    writes: false,
    message: `${file} is read-only (${file} is not writable (EROFS)): nothing can be saved`,
  })
  t.match(storeHealth(old), {
    state: 'read-only',
    reads: false,
    message: `${old} is read-only (${old} is not writable (EROFS)) and at schema version 0`,
  })
  t.match(storeHealth(join(dir, 'none.sqlite')), {
    state: 'missing',
    writes: false,
    message: `${dir} is not writable (EROFS)`,
  })
})
