import type { DatabaseSync } from 'node:sqlite'
import { BUSY_TIMEOUT_MS } from './store-trouble.ts'

/**
 * The schema version this code writes and understands: the version of the last step of
 * MIGRATIONS (src/adapters/sqlite/sqlite-schema.ts), which checks that the two agree. Opening a
 * store compares it with the file's and loads the migrations only when they differ.
 */
export const SCHEMA_VERSION = 18

/** The connection settings every store runs with; several processes may share one file. */
export function configure(db: DatabaseSync): void {
  // The busy timeout comes first so that switching to WAL waits for another process's lock.
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
  switchToWal(db)
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')
  // Deleted rows are overwritten with zeros, so that a forgotten row leaves no bytes in free space.
  db.exec('PRAGMA secure_delete = ON')
}

/**
 * Switches to WAL, waiting as the busy timeout does. While another process creates the same store,
 * SQLite can refuse the switch at once, without the busy handler (to avoid a deadlock on the lock
 * this connection holds); it is then tried again every 10 ms for up to 5 s.
 */
function switchToWal(db: DatabaseSync, waitMs = BUSY_TIMEOUT_MS): void {
  const deadline = Date.now() + waitMs
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL')
      return
    } catch (error) {
      if (!/database is locked/.test((error as Error).message) || Date.now() >= deadline) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  }
}

/** The schema version recorded in the file; 0 for a new store. */
export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number }
  return row.user_version
}
