import { mkdirSync, realpathSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { RetryLaterError } from '../../errors.ts'
import type { FileLock } from '../../ports/file-lock.ts'

// node:sqlite taken when this module runs, not linked by an import (see sqlite-open.ts).
const sqlite = process.getBuiltinModule('node:sqlite')

/** How long a caller waits for a lock held elsewhere before it is told to retry: 10 s. */
export const LOCK_WAIT_MS = 10_000

/** Options of createSqliteFileLock: the bound on the wait for a lock held elsewhere, ms (default LOCK_WAIT_MS). */
export interface SqliteFileLockOptions {
  readonly waitMs?: number
}

/**
 * The lock file of `file`: `.judge/<name>.lock` in the folder of the file, symbolic links
 * resolved, so that every path to one file names one lock. `.judge/` is the folder a project
 * keeps out of version control (docs/store.md), and no spec or data file is looked for there.
 */
export function lockFileOf(file: string): string {
  const real = realFile(file)
  return join(dirname(real), '.judge', `${basename(real)}.lock`)
}

function realFile(file: string): string {
  try {
    return realpathSync(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  // A file not made yet (a reviews file before its first verdict) is locked where it will be.
  return join(realpathSync(dirname(file)), basename(file))
}

/** The connections holding a lock now, kept reachable for as long as they hold it. */
const HELD = new Set<DatabaseSync>()

/**
 * A FileLock over SQLite's own file locking: the lock of a file is a `BEGIN IMMEDIATE`
 * transaction on its lock file, which writes nothing. SQLite's lock is the operating system's
 * (POSIX advisory locks), which the system drops when the process holding it ends, however it
 * ends, so a crashed process leaves no lock behind. A busy lock is tried again after a short,
 * growing pause, never by waiting inside SQLite, so the event loop is never blocked.
 */
export function createSqliteFileLock(options: SqliteFileLockOptions = {}): FileLock {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS
  return {
    async hold(file, work) {
      const path = lockFileOf(file)
      try {
        mkdirSync(dirname(path))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      // A connection per hold: two holders in one process then exclude each other as two processes do.
      const db = new sqlite.DatabaseSync(path, { timeout: 0 })
      // Held until the work settles: a connection collected with a frame that waits on nothing would drop the lock.
      HELD.add(db)
      try {
        // The journal is kept in memory: nothing is written, and no journal file appears beside the lock.
        db.exec('PRAGMA journal_mode = MEMORY')
        await begin(db, file, waitMs)
        try {
          return await work()
        } finally {
          db.exec('ROLLBACK')
        }
      } finally {
        HELD.delete(db)
        db.close()
      }
    },
  }
}

async function begin(db: DatabaseSync, file: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs
  for (let pause = 1; ; pause = Math.min(pause * 2, 32)) {
    try {
      db.exec('BEGIN IMMEDIATE')
      return
    } catch (error) {
      if (!busy(error)) throw error
    }
    if (Date.now() >= deadline) {
      const seconds = Math.round(waitMs / 100) / 10
      throw new RetryLaterError(
        `${file} stayed locked by another writer for ${seconds} s; nothing was saved, try again`,
        1,
        { context: { file, waitMs } },
      )
    }
    // Jitter, so that processes waiting on one lock do not try again in step.
    const ms = Math.min(pause * (0.5 + Math.random()), Math.max(0, deadline - Date.now()))
    await new Promise((resolve) => setTimeout(resolve, ms))
  }
}

function busy(error: unknown): boolean {
  const code = (error as { errcode?: unknown }).errcode
  // SQLITE_BUSY, or one of its extended codes (the low byte is the primary code).
  return typeof code === 'number' && (code & 0xff) === 5
}
