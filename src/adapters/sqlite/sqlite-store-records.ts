import type { SQLOutputValue } from 'node:sqlite'
import type { State } from '../../core/types.ts'
import type { CandidateQuestion, KeptRow, ShadowPair } from '../../ports/kept-store.ts'
import type { KeptStore } from '../../ports/kept-store.ts'
import type { Statements } from './sqlite-statements.ts'

type SqlRow = Record<string, SQLOutputValue>

/** The record methods of a SQLite store, over its prepared statements and write transaction. */
export function recordMethods(sql: Statements, transaction: (work: () => void) => void): KeptStore {
  return {
    keepRow(judgment, stateHash, state, at) {
      transaction(() => {
        sql.putState.run(stateHash, JSON.stringify(state), at)
        sql.keepRow.run(judgment, stateHash, at, at)
      })
    },
    keptRows(judgment) {
      return sql.keptRows.all(judgment).map(keptRowOf)
    },
    recordShadow(pairs, candidate = []) {
      transaction(() => {
        for (const s of pairs) {
          sql.putShadow.run(
            s.liveJudgment,
            s.candidateJudgment,
            s.candidateHash,
            s.stateHash,
            s.question,
            s.liveLabel,
            s.candidateLabel,
            s.at,
          )
        }
        for (const c of candidate) sql.putCandidate.run(c.judgment, c.specHash, c.question, c.fingerprint, c.seenAt)
      })
    },
    shadowPairs(liveJudgment) {
      return sql.shadowPairs.all(liveJudgment).map(shadowPairOf)
    },
    candidateQuestions() {
      return sql.candidateQuestions.all().map(
        (row): CandidateQuestion => ({
          judgment: row.judgment as string,
          specHash: row.spec_hash as string,
          question: row.question as string,
          fingerprint: row.fingerprint as string,
          seenAt: row.seen_at as string,
        }),
      )
    },
  }
}

function keptRowOf(row: SqlRow): KeptRow {
  return {
    judgment: row.judgment as string,
    stateHash: row.state_hash as string,
    state: JSON.parse(row.state as string) as State,
    firstSeen: row.first_seen as string,
    lastSeen: row.last_seen as string,
    seen: row.seen as number,
  }
}

function shadowPairOf(row: SqlRow): ShadowPair {
  return {
    liveJudgment: row.live_judgment as string,
    candidateJudgment: row.candidate_judgment as string,
    candidateHash: row.candidate_hash as string,
    stateHash: row.state_hash as string,
    question: row.question as string,
    liveLabel: row.live_label as string,
    candidateLabel: row.candidate_label as string,
    at: row.at as string,
  }
}
