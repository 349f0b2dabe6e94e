import type { DatabaseSync } from 'node:sqlite'
import type { Statements } from './sqlite-statements.ts'

/** Runs `work` in one write transaction: all of it is saved, or none. */
export type WriteTransaction = (work: () => void) => void

/**
 * The write transaction of a store. The write lock is taken up front (BEGIN IMMEDIATE) to wait out
 * another process's write under the busy timeout; a read transaction upgraded later would fail at
 * once instead. Whatever fails inside (the work, the COMMIT: a full disk, a damaged page) rolls
 * back, and the failure is what the caller gets. `refuse` gives the error of a store that takes no
 * writes, raised before anything is begun. Every write also deletes the review holds ended by
 * `now` (milliseconds since the epoch): one search of their index on `until`, empty most times.
 */
export function writeTransaction(
  db: DatabaseSync,
  sql: Statements,
  snapshot: ReadSnapshot | null,
  refuse: (() => Error) | null = null,
  now: () => number = Date.now,
): WriteTransaction {
  return (work) => {
    if (refuse) throw refuse()
    snapshot?.end()
    sql.begin.run()
    try {
      work()
      sql.dropExpiredLeases.run(now())
      sql.commit.run()
    } catch (error) {
      rollback(db, sql)
      throw error
    }
  }
}

/** A read transaction shared by the reads of one turn of the event loop. */
export interface ReadSnapshot {
  /** The read method run inside the turn's read transaction, opening it when none is open. */
  wrap<A extends unknown[], R>(read: (...args: A) => R): (...args: A) => R
  /** `read` run inside the turn's read transaction once: later calls in the same transaction give what it gave. */
  once<R>(read: () => R): () => R
  /** Ends the read transaction, if one is open; never throws. */
  end(): void
}

/**
 * The read transaction of a turn. It ends at the next turn, from setImmediate, where nothing
 * could catch an error: so ending it never throws. A COMMIT that fails (the file is damaged:
 * SQLite says so again at the end of a transaction whose read failed) rolls back instead; the
 * read that met the damage has already thrown to its own caller.
 */
export function readSnapshot(db: DatabaseSync, sql: Statements): ReadSnapshot {
  let open = false
  // Read transactions begun so far: what `once` tells one from the next by.
  let begun = 0
  const end = (): void => {
    if (!open) return
    open = false
    if (!db.isOpen || !db.isTransaction) return
    try {
      sql.commit.run()
    } catch {
      rollback(db, sql)
    }
  }
  const wrap: ReadSnapshot['wrap'] =
    (read) =>
    (...args) => {
      if (!open && !db.isTransaction) {
        sql.beginRead.run()
        open = true
        begun++
        setImmediate(end)
      }
      return read(...args)
    }
  const once = <R>(read: () => R): (() => R) => {
    const inTurn = wrap(read)
    let at = 0
    let value: R
    return () => {
      if (open && at === begun) return value
      value = inTurn()
      at = open ? begun : 0
      return value
    }
  }
  return { end, wrap, once }
}

/** Rolls back the transaction open on `db`, if any. It never throws: the error that led here is the one to report. */
export function rollback(db: DatabaseSync, sql: Statements): void {
  if (!db.isOpen || !db.isTransaction) return
  try {
    sql.rollback.run()
  } catch {
    // SQLite has ended the transaction itself (a full disk, an I/O error), or cannot: either way nothing of it is
    // saved.
  }
}
