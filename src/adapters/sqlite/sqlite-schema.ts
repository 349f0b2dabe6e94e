import type { DatabaseSync } from 'node:sqlite'
import { StoreError } from '../../store-error.ts'
import { SCHEMA_VERSION, userVersion } from './sqlite-connection.ts'
import { BASE_MIGRATIONS, type Migration } from './sqlite-base-migrations.ts'
import { answersEpochMigration } from './sqlite-epoch-migration.ts'
import { forgetMigration } from './sqlite-forget-migration.ts'
import { fitMigration } from './sqlite-fit-migration.ts'
import { openRunsMigration } from './sqlite-open-runs-migration.ts'
import { labelStatesMigration } from './sqlite-label-states-migration.ts'
import { runProvenanceMigration } from './sqlite-provenance-migration.ts'
import { paceCutsMigration } from './sqlite-pace-cuts-migration.ts'
import { reasksMigration } from './sqlite-reasks-migration.ts'
import { leasesMigration } from './sqlite-leases-migration.ts'
import { leaseValuesMigration } from './sqlite-lease-values-migration.ts'
import { routesMigration } from './sqlite-routes-migration.ts'
import { tallyMigration } from './sqlite-tally-migration.ts'
import { batchesMigration } from './sqlite-batches-migration.ts'
import { sourcesMigration } from './sqlite-sources-migration.ts'

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
  reasksMigration(13),
  leasesMigration(14),
  routesMigration(15),
  leaseValuesMigration(16),
  batchesMigration(17),
  sourcesMigration(18),
]

// SCHEMA_VERSION is written in src/adapters/sqlite/sqlite-connection.ts, where opening a store
// reads it without loading the migrations: a step appended here raises it there too (the schema's
// test checks that they agree).

/**
 * Brings the schema up to SCHEMA_VERSION in one transaction, or refuses a store written by a newer
 * version of the code. The version is read again under the write lock, so two processes opening a
 * new store at once migrate it once.
 */
export function migrate(db: DatabaseSync, file: string): void {
  if (userVersion(db) === SCHEMA_VERSION) return
  db.exec('BEGIN IMMEDIATE')
  let from = 0
  try {
    from = userVersion(db)
    if (from > SCHEMA_VERSION) throw newerError(file, from)
    for (const step of MIGRATIONS) if (step.version > from) db.exec(step.sql)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`)
    db.exec('COMMIT')
  } catch (error) {
    // SQLite may have rolled back itself (a full disk): the error that led here is the one to report.
    if (db.isTransaction) db.exec('ROLLBACK')
    throw error
  }
  // A step may have removed row values from a store in use (leaseValuesMigration): the pages from before it leave the
  // file and its log now, not at some later checkpoint. A new store has none to remove.
  if (from > 0) db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
}

/** A store written by a newer judge: refused, nothing in it changed. */
export function newerError(file: string, version: number): StoreError {
  return new StoreError(
    file,
    'newer',
    `${file}: the store has schema version ${version}, newer than the version ${SCHEMA_VERSION} ` +
      'this judge knows; upgrade judge to use this store',
    { context: { version } },
  )
}

export { configure, SCHEMA_VERSION, userVersion } from './sqlite-connection.ts'
