import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { sampleRank } from '../core/sample-rank.ts'
import type { State } from '../core/types.ts'
import { JudgeError } from '../errors.ts'
import type { Store, StoredAnswer } from '../ports/store.ts'
import { configure, migrate } from './sqlite-schema.ts'
import { LOOKUP_CHUNK, prepareStatements, sqlLimit } from './sqlite-statements.ts'
import type { AnswerRow, Statements } from './sqlite-statements.ts'
import { recordMethods } from './sqlite-store-records.ts'

/** The methods of the port that read and write answers and states. */
type AnswerMethods = Pick<Store, 'getAnswers' | 'putAnswers' | 'getStates' | 'answersForStates' |
  'sampleAnswers' | 'unsureAnswers' | 'countAnswers'>

/**
 * Opens (creating when missing) the SQLite store at `file`, or a private in-memory store for
 * `':memory:'`. Several processes may open one file at once; their writes wait for each other.
 * A store that cannot be opened or was written by a newer version is a JudgeError naming the file.
 */
export function openSqliteStore(file: string): Store {
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
    const transaction = writeTransaction(db, sql)
    return {
      ...answerMethods(sql, transaction),
      ...recordMethods(sql, transaction),
      close() {
        if (db.isOpen) db.close()
      },
    }
  } catch (error) {
    db.close()
    throw error instanceof JudgeError ? error : openError(file, error)
  }
}

function openError(file: string, error: unknown): JudgeError {
  return new JudgeError(`${file}: cannot open the store: ${(error as Error).message}`, { cause: error })
}

/**
 * Runs `work` in one transaction. It takes the write lock up front (BEGIN IMMEDIATE), so that it
 * waits out another process's write under the busy timeout; a read transaction upgraded later
 * would fail at once instead.
 */
function writeTransaction(db: DatabaseSync, sql: Statements): (work: () => void) => void {
  return (work) => {
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

function answerMethods(sql: Statements, transaction: (work: () => void) => void): AnswerMethods {
  return {
    getAnswers(model, stateHash, fingerprints) {
      const found = new Map<string, StoredAnswer>()
      for (let start = 0; start < fingerprints.length; start += LOOKUP_CHUNK) {
        const chunk = fingerprints.slice(start, start + LOOKUP_CHUNK)
        const rows = sql.getAnswers(chunk.length).all(model, stateHash, ...chunk) as unknown as AnswerRow[]
        // The map follows the order asked whatever order the rows come in; with the few questions
        // of a spec a linear find costs less than indexing the rows.
        for (const fingerprint of chunk) {
          const row = rows.find((r) => r[1] === fingerprint)
          if (row) found.set(fingerprint, answerOf(row))
        }
      }
      return found
    },
    putAnswers(answers, stateHash, state) {
      transaction(() => {
        sql.putState.run(stateHash, JSON.stringify(state))
        for (const a of answers) {
          sql.putAnswer.run(a.model, a.fingerprint, a.stateHash, a.judgment, a.question, a.label,
            a.p, a.margin, JSON.stringify(a.distribution), a.askedAt,
            sampleRank(a.judgment, a.question, a.stateHash))
        }
      })
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
    sampleAnswers(model, fingerprint, _judgment, _question, limit) {
      // The order is the rank stored with each answer when it was first asked (docs/store.md).
      return answersOf(sql.sampleAnswers.all(model, fingerprint, sqlLimit(limit)))
    },
    unsureAnswers(model, fingerprint, below, limit) {
      return answersOf(sql.unsureAnswers.all(model, fingerprint, below, sqlLimit(limit)))
    },
    countAnswers(model, fingerprint) {
      return (sql.countAnswers.get(model, fingerprint) as { n: number }).n
    },
  }
}

function answersOf(rows: unknown[]): StoredAnswer[] {
  return (rows as AnswerRow[]).map(answerOf)
}

function answerOf(row: AnswerRow): StoredAnswer {
  const [model, fingerprint, stateHash, judgment, question, label, p, margin, distribution, askedAt] = row
  return {
    model, fingerprint, stateHash, judgment, question, distribution: JSON.parse(distribution),
    label, p, margin, askedAt,
  }
}
