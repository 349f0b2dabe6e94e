import type { DatabaseSync } from 'node:sqlite'
import { StoreError } from '../../store-error.ts'
import { BASE_MIGRATIONS, type Migration } from './sqlite-base-migrations.ts'
import { answersEpochMigration } from './sqlite-epoch-migration.ts'
import { forgetMigration } from './sqlite-forget-migration.ts'
import { fitMigration } from './sqlite-fit-migration.ts'
import { openRunsMigration } from './sqlite-open-runs-migration.ts'
import { labelStatesMigration } from './sqlite-label-states-migration.ts'
import { runProvenanceMigration } from './sqlite-provenance-migration.ts'
import { paceCutsMigration } from './sqlite-pace-cuts-migration.ts'
import { routesMigration } from './sqlite-routes-migration.ts'
import { tallyMigration } from './sqlite-tally-migration.ts'
import { BUSY_TIMEOUT_MS } from './store-trouble.ts'

// Append only: a step that shipped is never edited, because stores in the field already ran it.
/** The schema's history, oldest first; the last step's version is the version this code writes. */
export const MIGRATIONS: readonly Migration[] = [
  ...BASE_MIGRATIONS,
  runProvenanceMigration(5),
  answersEpochMigration(6),
  forgetMigration(7),
  fitMigration(8),
  tallyMigration(9),
  openRunsMigration(10),
  labelStatesMigration(11),
  paceCutsMigration(12),
  routesMigration(13),
]

/** The schema version this code writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version

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

/**
 * Brings the schema up to SCHEMA_VERSION in one transaction, or refuses a store written by a newer
 * version of the code. The version is read again under the write lock, so two processes opening a
 * new store at once migrate it once.
 */
export function migrate(db: DatabaseSync, file: string): void {
  if (userVersion(db) === SCHEMA_VERSION) return
  db.exec('BEGIN IMMEDIATE')
  try {
    const from = userVersion(db)
    if (from > SCHEMA_VERSION) throw newerError(file, from)
    for (const step of MIGRATIONS) if (step.version > from) db.exec(step.sql)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
    db.exec('COMMIT')
  } catch (error) {
    // SQLite may have rolled back itself (a full disk): the error that led here is the one to report.
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
}

/** A store written by a newer judge: refused, nothing in it changed. */
export function newerError(file: string, version: number): StoreError {
  return new StoreError(file, 'newer', `${file}: the store has schema version ${version}, newer than the version ${SCHEMA_VERSION} ` +
    'this judge knows; upgrade judge to use this store', { context: { version } })
}

/** The schema version recorded in the file; 0 for a new store. */
export function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number }
  return row.user_version
}
