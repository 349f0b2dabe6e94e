import { mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { InternalError, JudgeError } from '../../errors.ts'
import type { Store } from '../../ports/store.ts'
import { configure, SCHEMA_VERSION, userVersion } from './sqlite-connection.ts'
import { prepareStatements } from './sqlite-statements.ts'
import type { Statements } from './sqlite-statements.ts'
import { answerMethods } from './sqlite-store-answers.ts'
import { engineMethods } from './sqlite-store-engine.ts'
import { cacheMethodsOnUse, forgetMethodsOnUse, recordMethodsOnUse, runMethodsOnUse, tallyMethodsOnUse } from './sqlite-store-groups.ts'

// Loaded when needed, synchronously as a store opens: the migrations when the file's schema is not
// this code's (a new or an older store), the answer cache for a server (docs/architecture.md).
const load = createRequire(import.meta.url)
const EXT = extname(import.meta.filename)
const schema = () => load(`./sqlite-schema${EXT}`) as typeof import('./sqlite-schema.ts')
const answerCache = () => load(`./answer-cache${EXT}`) as typeof import('./answer-cache.ts')

/** Options of openSqliteStore. */
export interface SqliteStoreOptions {
  /**
   * Reads made in one turn of the event loop share one read transaction, ended at the next turn
   * or before a write: each statement then skips taking and releasing the WAL read lock, which
   * costs more than a cached lookup. A commit by another connection is seen from the next turn.
   */
  readonly batchReads?: boolean
  /** Answers read for this many states kept in memory (answer-cache.ts), for a server whose traffic
   * repeats rows; 0 (the default) keeps none, as a run over distinct rows wants. */
  readonly cachedStates?: number
}

/** The methods of the port that only read. */
const READS = ['getAnswers', 'answeredFingerprints', 'getStates', 'answersForStates', 'answerLabels', 'sampleAnswers',
  'countAnswers', 'answerCells', 'listRuns', 'latestRuns', 'runLabelCounts', 'runStates', 'sameRunStates',
  'modelChecks', 'answerGroups', 'answersEpoch', 'writeMark', 'keptRows', 'shadowPairs', 'candidateQuestions', 'spendByDay'] as const

/**
 * Opens (creating when missing) the SQLite store at `file`, or a private in-memory store for
 * `':memory:'`. Several processes may open one file at once; their writes wait for each other.
 * A store that cannot be opened or was written by a newer version is a JudgeError naming the file.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  let db: DatabaseSync
  try {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true })
    db = new DatabaseSync(file)
  } catch (error) {
    throw openError(file, error)
  }
  try {
    configure(db)
    if (userVersion(db) !== SCHEMA_VERSION) schema().migrate(db, file)
    const sql = prepareStatements(db)
    const snapshot = options.batchReads ? readSnapshot(db, sql) : null
    const transaction = writeTransaction(db, sql, snapshot)
    const store: Store = {
      ...answerMethods(sql, transaction),
      ...runMethodsOnUse(sql, transaction),
      ...cacheMethodsOnUse(sql, transaction),
      ...tallyMethodsOnUse(sql),
      ...recordMethodsOnUse(sql, transaction),
      ...engineMethods(sql, transaction),
      ...forgetMethodsOnUse(db, sql, transaction),
      close() {
        snapshot?.end()
        if (db.isOpen) db.close()
      },
    }
    if (snapshot) {
      const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>
      for (const name of READS) methods[name] = snapshot.wrap(methods[name])
    }
    // In front of the read transaction, so that a kept answer costs no lock.
    return options.cachedStates ? answerCache().cacheAnswers(store, options.cachedStates) : store
  } catch (error) {
    db.close()
    throw error instanceof JudgeError ? error : openError(file, error)
  }
}

function openError(file: string, error: unknown): JudgeError {
  return new InternalError(`${file}: cannot open the store: ${(error as Error).message}`, { cause: error })
}

// The write lock is taken up front (BEGIN IMMEDIATE) to wait out another process's write under the
// busy timeout; a read transaction upgraded later would fail at once instead.
function writeTransaction(db: DatabaseSync, sql: Statements, snapshot: ReadSnapshot | null): (work: () => void) => void {
  return (work) => {
    snapshot?.end()
    sql.begin.run()
    try {
      work()
      sql.commit.run()
    } catch (error) {
      if (db.isTransaction) sql.rollback.run()
      throw error
    }
  }
}

/** A read transaction shared by the reads of one turn of the event loop. */
interface ReadSnapshot {
  /** The read method run inside the turn's read transaction, opening it when none is open. */
  wrap<A extends unknown[], R>(read: (...args: A) => R): (...args: A) => R
  /** Ends the read transaction, if one is open. */
  end(): void
}

function readSnapshot(db: DatabaseSync, sql: Statements): ReadSnapshot {
  let open = false
  const end = (): void => {
    if (!open) return
    open = false
    if (db.isOpen && db.isTransaction) sql.commit.run()
  }
  return {
    end,
    wrap: (read) => (...args) => {
      if (!open && !db.isTransaction) {
        sql.beginRead.run()
        open = true
        setImmediate(end)
      }
      return read(...args)
    },
  }
}
