import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { sampleRank } from '../../core/review/sample-rank.ts'
import type { State } from '../../core/types.ts'
import { InternalError, JudgeError } from '../../errors.ts'
import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'
import { cacheAnswers } from './answer-cache.ts'
import { configure, migrate } from './sqlite-schema.ts'
import { prepareStatements, sqlLimit, type AnswerRow, type Statements } from './sqlite-statements.ts'
import { cacheMethods } from './sqlite-store-cache.ts'
import { engineMethods } from './sqlite-store-engine.ts'
import { forgetMethods, storedAt } from './sqlite-store-forget.ts'
import { recordMethods } from './sqlite-store-records.ts'
import { runMethods } from './sqlite-store-runs.ts'

/** The methods of the port that read and write answers and states. */
type AnswerMethods = Pick<Store, 'getAnswers' | 'answeredFingerprints' | 'putAnswers' | 'getStates' |
  'answersForStates' | 'sampleAnswers' | 'countAnswers' | 'answerCells'>

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
const READS = ['getAnswers', 'answeredFingerprints', 'getStates', 'answersForStates', 'sampleAnswers',
  'countAnswers', 'answerCells', 'listRuns', 'latestRuns', 'runLabelCounts', 'runStates', 'sameRunStates',
  'modelChecks', 'answerGroups', 'answersEpoch', 'keptRows', 'shadowPairs', 'candidateQuestions', 'spendByDay'] as const

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
    migrate(db, file)
    const sql = prepareStatements(db)
    const snapshot = options.batchReads ? readSnapshot(db, sql) : null
    const transaction = writeTransaction(db, sql, snapshot)
    const store: Store = {
      ...answerMethods(sql, transaction),
      ...runMethods(sql, transaction),
      ...cacheMethods(sql, transaction),
      ...recordMethods(sql, transaction),
      ...engineMethods(sql, transaction),
      ...forgetMethods(db, sql, transaction),
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
    return options.cachedStates ? cacheAnswers(store, options.cachedStates) : store
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

function answerMethods(sql: Statements, transaction: (work: () => void) => void): AnswerMethods {
  return {
    getAnswers(model, stateHash, fingerprints) {
      const found = new Map<string, StoredAnswer>()
      if (fingerprints.length === 0) return found
      // One search for every answer of the state (they are adjacent in the key), then the ones
      // asked, in the order asked; a state rarely has answers beyond the questions of its spec.
      const rows = sql.getAnswers.all(model, stateHash) as unknown as AnswerRow[]
      for (const fingerprint of fingerprints) {
        const row = rows.find((r) => r[1] === fingerprint)
        if (row) found.set(fingerprint, answerOf(row))
      }
      return found
    },
    answeredFingerprints(model, stateHash, fingerprints) {
      const rows = sql.answeredFingerprints.all(model, stateHash) as unknown as [fingerprint: string][]
      const held = new Set(rows.map((row) => row[0]))
      return new Set(fingerprints.filter((fingerprint) => held.has(fingerprint)))
    },
    putAnswers(answers, stateHash, state) {
      let kept: StoredAnswer[] = []
      transaction(() => {
        sql.putState.run(stateHash, JSON.stringify(state), storedAt(answers))
        for (const a of answers) {
          sql.putAnswer.run(a.model, a.fingerprint, a.stateHash, a.judgment, a.question, a.label,
            a.p, a.margin, JSON.stringify(a.distribution), a.askedAt,
            sampleRank(a.judgment, a.question, a.stateHash), a.reportedModel ?? a.model)
        }
        // Read back under the same write lock: where another process wrote a key first, its answer stands.
        kept = answers.map((a) => answerOf(sql.getAnswer.get(a.model, a.stateHash, a.fingerprint) as unknown as AnswerRow))
      })
      return kept
    },
    getStates(stateHashes) {
      const states = new Map<string, State>()
      for (const row of sql.getStates.all(JSON.stringify(stateHashes))) {
        states.set(row.state_hash as string, JSON.parse(row.state as string) as State)
      }
      return states
    },
    answersForStates(model, fingerprint, stateHashes) {
      const unique = JSON.stringify([...new Set(stateHashes)])
      return answersOf(sql.answersForStates.all(unique, model, fingerprint))
    },
    sampleAnswers(model, fingerprint, _judgment, _question, limit, band) {
      // The order is the rank stored with each answer when it was first asked (docs/store.md).
      if (!band) return answersOf(sql.sampleAnswers.all(model, fingerprint, sqlLimit(limit)))
      return answersOf(sql.sampleBand.all(model, fingerprint, band.from, band.below, sqlLimit(limit)))
    },
    countAnswers(model, fingerprint, band) {
      const row = band ? sql.countBand.get(model, fingerprint, band.from, band.below) : sql.countAnswers.get(model, fingerprint)
      return (row as { n: number }).n
    },
    answerCells(model, fingerprint) {
      return sql.answerCells.all(model, fingerprint).map((row) =>
        ({ label: row.label as string, p: row.p as number, margin: row.margin as number, count: row.count as number }))
    },
  }
}

const answersOf = (rows: unknown[]): StoredAnswer[] => (rows as AnswerRow[]).map(answerOf)

function answerOf(row: AnswerRow): StoredAnswer {
  const [model, fingerprint, stateHash, judgment, question, label, p, margin, distribution, askedAt, reported] = row
  // Answers stored before the reported model was kept have none: the model asked stands in.
  return {
    model, fingerprint, stateHash, judgment, question, distribution: JSON.parse(distribution),
    label, p, margin, askedAt, reportedModel: reported || model,
  }
}
