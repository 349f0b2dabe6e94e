import t, { type Test } from 'tap'
import { statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { lockHolder } from '../../../src/adapters/sqlite/store-lock-holder.ts'
import { holdWriteLock } from '../../helpers/lock-holder.ts'

const LINUX = process.platform === 'linux' ? false : "/proc/locks is Linux's"

t.test("the process holding a store's write lock is named by its pid and command", { skip: LINUX }, async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const held = await holdWriteLock(t, file)
  t.equal(lockHolder(file), `pid ${held.pid}: node hold-write-lock.ts store.sqlite`)
  await held.release()
  t.equal(lockHolder(file), 'another process', 'once let go, no holder is found')
})

t.test('a write lock held by another connection of this process is named so', { skip: LINUX }, async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const db = new DatabaseSync(file)
  t.teardown(() => db.close())
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('BEGIN IMMEDIATE')
  t.equal(lockHolder(file), 'another connection of this process')
  db.exec('ROLLBACK')
})

/** A `-shm` file, and the /proc/locks device and inode that name it. */
function shmOf(t: Test): { file: string; id: string } {
  const file = join(t.testdir(), 'store.sqlite')
  writeFileSync(`${file}-shm`, '')
  const { dev, ino } = statSync(`${file}-shm`, { bigint: true })
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & 0xfffff000n)
  const minor = (dev & 0xffn) | ((dev >> 12n) & 0xffffff00n)
  return { file, id: `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}:${ino}` }
}

t.test(
  "only a write lock over the write byte of the store's -shm counts, not a read lock, a waiter or another file",
  async (t) => {
    const { file, id } = shmOf(t)
    const commandLine = (pid: number) =>
      pid === 7 ? '/usr/bin/node\0--max-old-space-size=4096\0/opt/judge/bin/judge.js\0run\0/secret/rows.csv\0' : null
    const holder = (locks: string) => lockHolder(file, { locks: () => locks, commandLine, pid: 1 })
    t.equal(
      holder(`1: POSIX  ADVISORY  WRITE 7 ${id} 120 120\n`),
      'pid 7: node judge.js run',
      'the program and two arguments past its flags, by their last part',
    )
    t.equal(
      holder(`1: POSIX  ADVISORY  WRITE 7 ${id} 0 EOF\n`),
      'pid 7: node judge.js run',
      'a lock to the end of the file covers it',
    )
    t.equal(holder(`1: POSIX  ADVISORY  WRITE 8 ${id} 100 130\n`), 'pid 8', 'a process gone since has no command line')
    t.equal(holder(`1: POSIX  ADVISORY  READ 7 ${id} 120 120\n`), 'another process')
    t.equal(holder(`1: -> POSIX  ADVISORY  WRITE 7 ${id} 120 120\n`), 'another process', 'a waiter holds nothing')
    t.equal(
      holder(`1: POSIX  ADVISORY  WRITE 7 ${id} 121 128\n1: POSIX  ADVISORY  WRITE 7 ${id} 0 119\n`),
      'another process',
    )
    t.equal(
      holder(`1: POSIX  ADVISORY  WRITE 7 00:00:1 120 120\n1: FLOCK  ADVISORY  WRITE 7 ${id} 0 EOF\n`),
      'another process',
    )
    t.equal(
      lockHolder(file, { locks: () => `1: POSIX  ADVISORY  WRITE 1 ${id} 120 120\n`, pid: 1 }),
      'another connection of this process',
    )
  },
)

t.test('without /proc/locks or a -shm file, the holder is another process', async (t) => {
  const { file } = shmOf(t)
  t.equal(lockHolder(file, { locks: () => null }), 'another process')
  t.equal(lockHolder(join(dirname(file), 'none.sqlite')), 'another process')
})
