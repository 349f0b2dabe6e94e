import { statfsSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import type { StoreTrouble } from '../../store-error.ts'
import { StoreError } from '../../store-error.ts'
import { connectReadOnly } from './sqlite-open.ts'
import { newerError, SCHEMA_VERSION, userVersion } from './sqlite-schema.ts'
import { storeWriteProblem } from './store-location.ts'
import { damagedMessage, readOnlyMessage, storeErrorOf } from './store-trouble.ts'

/** A store file's state, as a readiness check reports it. */
export interface StoreHealth {
  readonly file: string
  /** `ok`; `missing` (the first write makes it); or the trouble found. */
  readonly state: 'ok' | 'missing' | StoreTrouble
  /** What is wrong and what to do; '' when the state is ok. */
  readonly message: string
  /** Whether reads can be served. */
  readonly reads: boolean
  /** Whether writes can be saved. */
  readonly writes: boolean
}

/** Options of storeHealth. */
export interface StoreHealthOptions {
  /**
   * Read every page (`PRAGMA quick_check`), which finds damage anywhere in the file at the cost of
   * reading all of it; default true. Without, only the header and the schema are read.
   */
  readonly pages?: boolean
  /** Free bytes on the store's disk below which it counts as full; default 1 MiB. */
  readonly minFreeBytes?: number
  /** Free bytes on the disk holding `folder` (tests pass their own). */
  readonly freeBytes?: (folder: string) => number
}

/**
 * Checks the store file at `file` without changing it, for a readiness check or `judge doctor`:
 * whether it exists, is a judge store this code reads, is undamaged, can be written, and has room
 * to grow. Never throws; the first trouble found is the one reported.
 */
export function storeHealth(file: string, options: StoreHealthOptions = {}): StoreHealth {
  const { pages = true, minFreeBytes = 1024 * 1024, freeBytes = diskFree } = options
  const found = statSync(file, { throwIfNoEntry: false })
  const cannotWrite = storeWriteProblem(file)
  if (!found)
    return {
      file,
      state: 'missing',
      message: cannotWrite ?? `${file} does not exist yet: the first write makes it`,
      reads: false,
      writes: cannotWrite === null,
    }
  if (!found.isFile())
    return trouble(
      file,
      new StoreError(file, 'not a store', `${file} is not a file: move it away, or set JUDGE_STORE to the store file`),
    )
  try {
    const db = connectReadOnly(file, (db) => checkReadable(db, file, cannotWrite))
    try {
      if (pages) checkPages(db, file)
    } finally {
      db.close()
    }
  } catch (error) {
    return trouble(file, storeErrorOf(file, error, {}, true))
  }
  if (cannotWrite !== null)
    return { file, state: 'read-only', message: readOnlyMessage(file, cannotWrite), reads: true, writes: false }
  const free = freeBytes(dirname(file))
  if (free < minFreeBytes) {
    const message = `${file}: the disk is full (${free} bytes free): free space; reads work, and writes fail until then`
    return { file, state: 'full', message, reads: true, writes: false }
  }
  return { file, state: 'ok', message: '', reads: true, writes: true }
}

function trouble(file: string, error: unknown): StoreHealth {
  const known = error instanceof StoreError
  return {
    file,
    state: known ? error.trouble : 'cannot open',
    message: known ? error.message : String(error),
    reads: false,
    writes: false,
  }
}

/** The schema is read (which finds a file that is no database), and is one this code reads or, writable, upgrades. */
function checkReadable(db: DatabaseSync, file: string, cannotWrite: string | null): void {
  const version = userVersion(db)
  if (version > SCHEMA_VERSION) throw newerError(file, version)
  if (version < SCHEMA_VERSION && cannotWrite !== null) {
    throw new StoreError(
      file,
      'read-only',
      `${file} is read-only (${cannotWrite}) and at schema version ${version}: ` +
        'open it once where it can be written, which upgrades it',
    )
  }
}

function checkPages(db: DatabaseSync, file: string): void {
  const rows = db.prepare('PRAGMA quick_check(5)').all() as { quick_check: string }[]
  const problems = rows.map((r) => r.quick_check).filter((line) => line !== 'ok')
  if (problems.length > 0) throw new StoreError(file, 'damaged', damagedMessage(file, problems.join('; ')))
}

function diskFree(folder: string): number {
  const stats = statfsSync(folder)
  return stats.bavail * stats.bsize
}
