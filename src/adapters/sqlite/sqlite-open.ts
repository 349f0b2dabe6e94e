import { mkdirSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'
import { lazy } from '../../lazy.ts'
import { StoreError } from '../../store-error.ts'
import { configure, SCHEMA_VERSION, userVersion } from './sqlite-connection.ts'
import { storeWriteProblem } from './store-location.ts'
import { BUSY_TIMEOUT_MS, isReadOnlyCode, sqliteCode, storeErrorOf } from './store-trouble.ts'

// node:sqlite is taken when this module runs, not linked by an import: on a Node without it, the
// library's entry says which Node it needs (src/supported-node.ts) before any module runs into it.
const sqlite = process.getBuiltinModule('node:sqlite')

// The migrations load only when a file's schema is not this code's (a new, older or newer store).
const schema = lazy<typeof import('./sqlite-schema.ts')>(import.meta.url, './sqlite-schema.ts')

/** A connection to a store file, and why it takes no writes (null: it does). */
export interface OpenedFile {
  readonly db: DatabaseSync
  readonly readOnly: string | null
}

/**
 * Opens the store at `file` for writing, creating it (and its folders) when missing, configured
 * and migrated. A file that exists but cannot be written (a read-only mount, a backup, a file
 * without write permission) is opened read-only instead, when its schema is current: reads work,
 * and the caller refuses writes saying why. Every failure is a StoreError naming the file.
 */
export function openStoreFile(file: string): OpenedFile {
  try {
    return { db: openWritable(file), readOnly: null }
  } catch (error) {
    const why = isReadOnlyCode(sqliteCode(error)) ? readOnlyCause(file) : null
    if (why === null) throw storeErrorOf(file, error, {}, true)
    return { db: openReadOnly(file, why), readOnly: why }
  }
}

function openWritable(file: string): DatabaseSync {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
  const db = new sqlite.DatabaseSync(file)
  try {
    configure(db)
    if (userVersion(db) !== SCHEMA_VERSION) schema().migrate(db, file)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/**
 * Why an existing store file cannot be written, or null when it is not a file or can be written (its trouble is
 * another).
 */
function readOnlyCause(file: string): string | null {
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return null
  return storeWriteProblem(file)
}

/** Opens `file` read-only, as a store that cannot be written is: at this code's schema version. */
function openReadOnly(file: string, why: string): DatabaseSync {
  try {
    return connectReadOnly(file, (db) => {
      db.exec('PRAGMA foreign_keys = ON')
      checkVersion(db, file, why)
    })
  } catch (error) {
    throw storeErrorOf(file, error, { readOnly: why }, true)
  }
}

/**
 * A read-only connection to `file`, on which `probe` succeeded. WAL mode reads through the `-shm`
 * file beside the store, which SQLite makes when it is missing; where nothing can be made (a
 * read-only mount), the file is opened `immutable`: read as it is, with no lock and no `-shm`,
 * which holds because nothing can write it there either. A StoreError from `probe` is thrown at
 * once; else the first connection's error is.
 */
export function connectReadOnly(file: string, probe: (db: DatabaseSync) => void): DatabaseSync {
  const immutable = pathToFileURL(file)
  immutable.searchParams.set('immutable', '1')
  let first: unknown
  for (const target of [file, immutable]) {
    let db: DatabaseSync | null = null
    try {
      db = new sqlite.DatabaseSync(target, { readOnly: true, timeout: BUSY_TIMEOUT_MS })
      probe(db)
      return db
    } catch (error) {
      db?.close()
      if (error instanceof StoreError) throw error
      first ??= error
    }
  }
  throw first
}

/** A read-only store must be at this code's schema version: it cannot be migrated where it is. */
function checkVersion(db: DatabaseSync, file: string, why: string): void {
  const version = userVersion(db)
  if (version > SCHEMA_VERSION) throw schema().newerError(file, version)
  if (version < SCHEMA_VERSION) {
    throw new StoreError(
      file,
      'read-only',
      `${file} is read-only (${why}) and at schema version ${version}, older than the version ` +
        `${SCHEMA_VERSION} this judge reads: open it once where it can be written, which upgrades it`,
    )
  }
}
