import { createRequire } from 'node:module'
import { extname } from 'node:path'
import type { Store } from '../../ports/store.ts'
import { StoreError } from '../../store-error.ts'
import { openStoreFile } from './sqlite-open.ts'
import { prepareStatements } from './sqlite-statements.ts'
import { answerMethods } from './sqlite-store-answers.ts'
import { engineMethods } from './sqlite-store-engine.ts'
import {
  cacheMethodsOnUse,
  forgetMethodsOnUse,
  leaseMethodsOnUse,
  reaskMethodsOnUse,
  recordMethodsOnUse,
  runMethodsOnUse,
  tallyMethodsOnUse,
} from './sqlite-store-groups.ts'
import { readSnapshot, writeTransaction } from './sqlite-transactions.ts'
import { readOnlyMessage, storeErrorOf } from './store-trouble.ts'

// Loaded when needed: the answer cache for a server (docs/architecture.md).
const load = createRequire(import.meta.url)
const answerCache = () => load(`./answer-cache${extname(import.meta.filename)}`) as typeof import('./answer-cache.ts')

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

/** The methods of the port that only read. */
const READS = [
  'getAnswers',
  'answeredFingerprints',
  'getStates',
  'answersForStates',
  'answerLabels',
  'sampleAnswers',
  'countAnswers',
  'answerCells',
  'modelAnswerCounts',
  'listRuns',
  'latestRuns',
  'runLabelCounts',
  'runStates',
  'sameRunStates',
  'modelChecks',
  'answerGroups',
  'answersEpoch',
  'writeMark',
  'keptRows',
  'shadowPairs',
  'candidateQuestions',
  'spendByDay',
  'latestReasks',
] as const

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
    const store: Store = {
      ...answerMethods(sql, transaction),
      ...runMethodsOnUse(sql, transaction),
      ...cacheMethodsOnUse(sql, transaction),
      ...tallyMethodsOnUse(sql),
      ...recordMethodsOnUse(sql, transaction),
      ...engineMethods(sql, transaction),
      ...forgetMethodsOnUse(db, sql, transaction),
      ...reaskMethodsOnUse(db, transaction),
      ...leaseMethodsOnUse(sql, transaction, readOnly !== null),
      close() {
        snapshot?.end()
        if (db.isOpen) db.close()
      },
    }
    if (snapshot) {
      const methods = store as unknown as Record<string, (...args: unknown[]) => unknown>
      for (const name of READS) methods[name] = snapshot.wrap(methods[name])
    }
    // Pages read while the file was damaged are not kept: once it is put right, they are read again.
    const forgetPages = () => void (db.isOpen && db.exec('PRAGMA shrink_memory'))
    const guarded = guardStore(store, file, readOnly, forgetPages)
    // In front of the read transaction, so that a kept answer costs no lock.
    return options.cachedStates ? answerCache().cacheAnswers(guarded, options.cachedStates) : guarded
  } catch (error) {
    db.close()
    throw storeErrorOf(file, error, { readOnly }, true)
  }
}

/**
 * The store with every SQLite error about the file turned into a StoreError as it leaves a
 * method (store-trouble.ts), and the answers it stored counted: what a full disk keeps.
 * `damaged` is called when a call met a damaged file.
 */
function guardStore(store: Store, file: string, readOnly: string | null, damaged: () => void): Store {
  let keptAnswers = 0
  const guarded: Record<string, unknown> = {}
  for (const [name, method] of Object.entries(store) as [string, (...args: unknown[]) => unknown][]) {
    guarded[name] = (...args: unknown[]) => {
      try {
        const result = method(...args)
        if (name === 'putAnswers') keptAnswers += (args[0] as readonly unknown[]).length
        return result
      } catch (error) {
        const trouble = storeErrorOf(file, error, { keptAnswers, readOnly })
        if (trouble instanceof StoreError && trouble.trouble === 'damaged') damaged()
        throw trouble
      }
    }
  }
  return guarded as unknown as Store
}
