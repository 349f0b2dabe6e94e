import type { Store, StoreMethod } from '../../ports/store.ts'
import { StoreError } from '../../store-error.ts'
import { lazy } from '../../lazy.ts'
import { openStoreFile } from './sqlite-open.ts'
import { prepareStatements } from './sqlite-statements.ts'
import { STORE_METHODS, storeMethods, type AnyMethod } from './sqlite-store-groups.ts'
import { readSnapshot, writeTransaction, type ReadSnapshot } from './sqlite-transactions.ts'
import { readOnlyMessage, storeErrorOf, type TroubleFacts } from './store-trouble.ts'

// The answer cache is a server's (docs/architecture.md, Caches): loaded when a store is opened with one.
const answerCaches = lazy<typeof import('./answer-cache.ts')>(import.meta.url, './answer-cache.ts')

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
  /**
   * The clock review holds end by, in milliseconds since the epoch: each write deletes those ended; Date.now by
   * default.
   */
  readonly now?: () => number
}

/**
 * Opens (creating when missing) the SQLite store at `file`, or a private in-memory store for
 * `':memory:'`. Several processes may open one file at once; their writes wait for each other.
 * A file that can only be read is opened read-only: its reads work, and each write is refused
 * saying why. Whatever the file's trouble, when it opens or at any call later (damaged, full,
 * read-only, locked, not a store, written by a newer version), it is a StoreError naming the file
 * and what to do; no transaction is left open and nothing escapes to the event loop.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  const { db, readOnly } = openStoreFile(file)
  try {
    const sql = prepareStatements(db)
    const snapshot = options.batchReads ? readSnapshot(db, sql) : null
    const refuse = readOnly === null ? null : () => new StoreError(file, 'read-only', readOnlyMessage(file, readOnly))
    const transaction = writeTransaction(db, sql, snapshot, refuse, options.now)
    const kept = { answers: 0 }
    const made = inTurns(storeMethods({ db, sql, transaction, readOnly: readOnly !== null, kept }), snapshot)
    const methods = options.cachedStates ? keepingAnswers(made, options.cachedStates, snapshot) : made
    // Pages read while the file was damaged are not kept: once it is put right, they are read again.
    const forgetPages = () => void (db.isOpen && db.exec('PRAGMA shrink_memory'))
    const guard = guardOf(file, () => ({ keptAnswers: kept.answers, readOnly }), forgetPages)
    const store = {} as Record<keyof Store, AnyMethod>
    for (const name of Object.keys(methods) as StoreMethod[]) store[name] = guard(methods[name])
    store.close = guard(() => {
      snapshot?.end()
      if (db.isOpen) db.close()
    })
    return store as unknown as Store
  } catch (error) {
    db.close()
    throw storeErrorOf(file, error, { readOnly }, true)
  }
}

/** The store's methods with each read run in the turn's read transaction (STORE_METHODS says which read). */
function inTurns(
  methods: Record<StoreMethod, AnyMethod>,
  snapshot: ReadSnapshot | null,
): Record<StoreMethod, AnyMethod> {
  if (!snapshot) return methods
  const wrapped = { ...methods }
  for (const name of Object.keys(methods) as StoreMethod[]) {
    if (STORE_METHODS[name].kind === 'read') wrapped[name] = snapshot.wrap(methods[name])
  }
  return wrapped
}

/**
 * The store's methods with the answer cache in front of its answer lookups. The cache checks the
 * write mark at each lookup, read once per turn with batched reads (the turn's read transaction):
 * a turn of kept answers costs that one read, however many it serves.
 */
function keepingAnswers(
  methods: Record<StoreMethod, AnyMethod>,
  states: number,
  snapshot: ReadSnapshot | null,
): Record<StoreMethod, AnyMethod> {
  const writeMark = methods.writeMark as () => number
  const cache = answerCaches().createAnswerCache(states, snapshot ? snapshot.once(writeMark) : writeMark)
  return {
    ...methods,
    getAnswers: cache.getAnswers(methods.getAnswers as Store['getAnswers']) as AnyMethod,
    answerLabels: cache.answerLabels(methods.answerLabels as Store['answerLabels']) as AnyMethod,
  }
}

/**
 * A method with every SQLite error about the file turned into a StoreError as it leaves
 * (store-trouble.ts), told the facts of the store at that time. `damaged` is called when a call
 * met a damaged file.
 */
function guardOf(file: string, facts: () => TroubleFacts, damaged: () => void): (method: AnyMethod) => AnyMethod {
  return (method) =>
    (...args) => {
      try {
        return method(...args)
      } catch (error) {
        const trouble = storeErrorOf(file, error, facts())
        if (trouble instanceof StoreError && trouble.trouble === 'damaged') damaged()
        throw trouble
      }
    }
}
