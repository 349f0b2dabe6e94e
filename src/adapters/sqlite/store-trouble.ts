import { JudgeError } from '../../errors.ts'
import { StoreError } from '../../store-error.ts'
import { lazy } from '../../lazy.ts'

// Who holds a lock is read only when a store is found locked.
const holders = lazy<typeof import('./store-lock-holder.ts')>(import.meta.url, './store-lock-holder.ts')
const lockHolder = (file: string): string => holders().lockHolder(file)

/** How long a write waits for another process's write before it gives up: SQLite's busy timeout, ms. */
export const BUSY_TIMEOUT_MS = 5000

/** What a store knows when one of its calls fails: facts its message gives. */
export interface TroubleFacts {
  /** Answers this process stored in the file since it opened it: what a full disk keeps. */
  readonly keptAnswers?: number
  /** Why the file was opened read-only, or null when it takes writes. */
  readonly readOnly?: string | null
  /** Who holds the write lock (default: asked of the system when the lock was waited out). */
  readonly holder?: (file: string) => string
}

/** SQLite's primary result code of an error (the low byte of its extended code), or null for an error not SQLite's. */
export function sqliteCode(error: unknown): number | null {
  const code = (error as { errcode?: unknown } | null)?.errcode
  return typeof code === 'number' ? code & 0xff : null
}

/** Whether an error is SQLite's "database or disk is full". */
export function isDiskFull(error: unknown): boolean {
  return sqliteCode(error) === FULL
}

/** SQLite's primary result codes that say something of the file (https://sqlite.org/rescode.html). */
const PERM = 3,
  BUSY = 5,
  READONLY = 8,
  IOERR = 10,
  CORRUPT = 11,
  FULL = 13,
  CANTOPEN = 14,
  NOTADB = 26

/** The codes a store opened for writing gets from a file it may only read. */
export function isReadOnlyCode(code: number | null): boolean {
  return code === READONLY || code === CANTOPEN || code === PERM
}

/**
 * The StoreError for an error SQLite raised about the file `file`: damaged, full, read-only,
 * locked past the busy timeout, not a database. Any other error is returned as it is: a bug or a
 * bad argument is not the file's trouble. With `opening`, every error but a JudgeError is the
 * file's: the store could not be opened.
 */
export function storeErrorOf(file: string, error: unknown, facts: TroubleFacts = {}, opening = false): unknown {
  if (error instanceof JudgeError) return error
  const code = sqliteCode(error)
  const detail = (error as Error)?.message ?? String(error)
  const options = { cause: error, context: { sqlite: code } }
  switch (code) {
    case CORRUPT:
    case IOERR:
      return new StoreError(file, 'damaged', damagedMessage(file, detail), options)
    case FULL:
      return new StoreError(file, 'full', fullMessage(file, facts.keptAnswers ?? 0), options)
    case READONLY:
      return new StoreError(file, 'read-only', readOnlyMessage(file, facts.readOnly ?? `SQLite: ${detail}`), options)
    case BUSY:
      return new StoreError(file, 'locked', lockedMessage(file, (facts.holder ?? lockHolder)(file)), options)
    case NOTADB:
      return new StoreError(
        file,
        'not a store',
        `${file} is not a judge store (${detail}): move it away, or set JUDGE_STORE to the store file`,
        options,
      )
  }
  if (opening || code === CANTOPEN || code === PERM) {
    return new StoreError(
      file,
      'cannot open',
      `${file}: cannot open the store (${detail}): check that it is a file that this user can read and write, ` +
        'in a folder it can write',
      options,
    )
  }
  return error
}

/** A damaged file (or a disk that failed reading it), and how to get a store back. */
export function damagedMessage(file: string, detail: string): string {
  return (
    `${file} is damaged (${detail}): stop every judge process on it, then restore it from a backup, ` +
    `or recover what is left with sqlite3 ${quoted(file)} ".recover" | sqlite3 recovered.sqlite and put ` +
    'recovered.sqlite in its place'
  )
}

/** A full disk: nothing more is saved, and what was saved stays. */
export function fullMessage(file: string, kept: number): string {
  return (
    `${file}: the disk is full, nothing more can be saved: free space and run ` +
    `again: ${kept} ${kept === 1 ? 'answer is' : 'answers are'} kept`
  )
}

/** A store opened read-only, asked to write. */
export function readOnlyMessage(file: string, why: string): string {
  return (
    `${file} is read-only (${why}): nothing can be saved in it, and reading it works. ` +
    'To write, make the file and its folder writable (SQLite writes store.sqlite-wal and -shm beside it), ' +
    'or work on a writable copy'
  )
}

/** A write that waited out the busy timeout. */
export function lockedMessage(file: string, holder: string): string {
  return (
    `${file} stayed locked by another writer (${holder}) past the busy timeout of ${BUSY_TIMEOUT_MS / 1000} s; ` +
    'nothing was saved: try again once it is done'
  )
}

/** A path as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
export function quoted(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.split("'").join("'\\''")}'`
}
