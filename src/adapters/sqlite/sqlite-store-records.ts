import type { SQLOutputValue } from 'node:sqlite'
import type { RunRecord, RunState, State } from '../../core/types.ts'
import type { KeptRow, RunLabelCount, ShadowPair, Store } from '../../ports/store.ts'
import { sqlLimit } from './sqlite-statements.ts'
import type { Statements } from './sqlite-statements.ts'

type SqlRow = Record<string, SQLOutputValue>

/** The methods of the port that record what happened: runs, rows kept for replay, shadow pairs. */
export type RecordMethods = Pick<Store, 'recordRun' | 'getRun' | 'runStates' | 'countRunStates' | 'listRuns' |
  'runLabelCounts' | 'keepRow' | 'keptRows' | 'recordShadow' | 'shadowPairs'>

/** The record methods of a SQLite store, over its prepared statements and write transaction. */
export function recordMethods(sql: Statements, transaction: (work: () => void) => void): RecordMethods {
  return {
    recordRun(run, counts, states = []) {
      transaction(() => {
        sql.putRun.run(...runValues(run))
        // The counts and states belong to `run`: recording a run again replaces them all.
        sql.clearRunLabels.run(run.run_id)
        for (const c of counts) sql.putRunLabel.run(run.run_id, c.question, c.label, c.count)
        sql.clearRunStates.run(run.run_id)
        for (const s of states) sql.putRunState.run(run.run_id, s.stateHash, s.rows)
      })
    },
    getRun(runId) {
      const row = sql.getRun.get(runId)
      return row ? plain<RunRecord>(row) : null
    },
    runStates(runId, offset, limit) {
      return sql.runStates.all(runId, sqlLimit(limit), Math.max(0, Math.trunc(offset) || 0))
        .map((row): RunState => ({ stateHash: row.state_hash as string, rows: row.rows as number }))
    },
    countRunStates(runId) {
      return (sql.countRunStates.get(runId) as { n: number }).n
    },
    listRuns(judgments, limit) {
      return sql.listRuns.all(JSON.stringify(judgments), sqlLimit(limit)).map(plain<RunRecord>)
    },
    runLabelCounts(judgment) {
      return sql.runLabelCounts.all(judgment).map(plain<RunLabelCount>)
    },
    keepRow(judgment, stateHash, state, at) {
      transaction(() => {
        sql.putState.run(stateHash, JSON.stringify(state))
        sql.keepRow.run(judgment, stateHash, at, at)
      })
    },
    keptRows(judgment) {
      return sql.keptRows.all(judgment).map(keptRowOf)
    },
    recordShadow(pairs) {
      transaction(() => {
        for (const s of pairs) {
          sql.putShadow.run(s.liveJudgment, s.candidateJudgment, s.candidateHash, s.stateHash,
            s.question, s.liveLabel, s.candidateLabel, s.at)
        }
      })
    },
    shadowPairs(liveJudgment) {
      return sql.shadowPairs.all(liveJudgment).map(shadowPairOf)
    },
  }
}

function runValues(run: RunRecord): [string, string, string, string, string, number, number,
  number, string, string, string, number, number] {
  return [run.run_id, run.judgment, run.spec_hash, run.git_sha, run.model, run.rows, run.asked,
    run.cost, run.status, run.started_at, run.finished_at, run.cached, run.requests]
}

/** A row as a plain object in column order, so that it serializes with the fields as selected. */
function plain<T>(row: SqlRow): T {
  return { ...row } as T
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
