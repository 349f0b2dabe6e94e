import type { SQLOutputValue } from 'node:sqlite'
import type { LabelCount, ModelCheck, ModelPair, RunRecord, RunState } from '../../core/types.ts'
import type { OpenRun, RunLabelCount } from '../../ports/run-store.ts'
import type { RunStore } from '../../ports/run-store.ts'
import { sqlLimit } from './sqlite-statements.ts'
import type { Statements } from './sqlite-statements.ts'

type SqlRow = Record<string, SQLOutputValue>

/** The run methods of a SQLite store, over its prepared statements and write transaction. */
export function runMethods(sql: Statements, transaction: (work: () => void) => void): RunStore {
  return {
    recordRun(run, counts, states = []) {
      transaction(() => {
        sql.deleteOpenRun.run(run.run_id)
        putRun(sql, run, counts, states)
      })
    },
    putOpenRun(open) {
      transaction(() => {
        sql.putOpenRun.run(
          open.run.run_id,
          open.pid,
          open.host,
          open.heartbeat_at,
          JSON.stringify(open.run),
          JSON.stringify(open.counts),
        )
      })
    },
    openRuns() {
      return sql.openRuns.all().map(
        (row): OpenRun => ({
          run: JSON.parse(row.record as string),
          counts: JSON.parse(row.counts as string),
          pid: row.pid as number,
          host: row.host as string,
          heartbeat_at: row.heartbeat_at as string,
        }),
      )
    },
    closeOpenRun(run, counts) {
      let closed = false
      transaction(() => {
        closed = Number(sql.deleteOpenRun.run(run.run_id).changes) > 0
        if (closed) putRun(sql, run, counts, [])
      })
      return closed
    },
    listRuns(judgments, limit) {
      return sql.listRuns.all(JSON.stringify(judgments), sqlLimit(limit)).map(runOf)
    },
    latestRuns() {
      return sql.latestRuns.all().map(runOf)
    },
    runLabelCounts(judgment) {
      return sql.runLabelCounts.all(judgment).map((row) => ({ ...row }) as unknown as RunLabelCount)
    },
    runStates(runId, from, limit) {
      const n = sqlLimit(limit)
      const after = sql.runStatesFrom.all(runId, from, n).map(runStateOf)
      if (after.length >= n || from === '') return after
      return [...after, ...sql.runStatesBefore.all(runId, from, n - after.length).map(runStateOf)]
    },
    getRun(runId) {
      const row = sql.getRun.get(runId)
      return row ? runOf(row) : null
    },
    runStatesPage(runId, offset, limit) {
      return sql.runStatesPage.all(runId, sqlLimit(limit), Math.max(0, Math.trunc(offset) || 0)).map(runStateOf)
    },
    runStateCount(runId) {
      return (sql.runStateCount.get(runId) as { n: number }).n
    },
    deleteRunStates(runIds) {
      let deleted = 0
      transaction(() => {
        for (const runId of runIds) deleted += Number(sql.clearRunStates.run(runId).changes)
      })
      return deleted
    },
    sameRunStates(a, b) {
      const row = sql.sameRunStates.get(b, a, a, b) as { same: number; a: number; b: number }
      return row.a === row.b && row.same === row.a
    },
    recordModelCheck(check) {
      transaction(() => {
        sql.putModelCheck.run(
          check.run_id,
          check.baseline,
          check.old_model,
          check.new_model,
          check.rows_from,
          check.states,
          check.same_rows ? 1 : 0,
          check.stopped,
          check.asked,
          check.cost,
        )
        sql.clearModelPairs.run(check.run_id)
        for (const p of check.pairs) sql.putModelPair.run(check.run_id, p.question, p.old_label, p.new_label, p.rows)
      })
    },
    modelChecks(judgment) {
      // Every check's pairs in one read, rather than a read per check.
      const pairs = new Map<string, ModelPair[]>()
      for (const { run_id: runId, ...pair } of sql.modelPairs.all(judgment)) {
        const list = pairs.get(runId as string) ?? []
        pairs.set(runId as string, list)
        list.push({ ...pair } as unknown as ModelPair)
      }
      return sql.modelChecks.all(judgment).map(
        (row): ModelCheck => ({
          run_id: row.run_id as string,
          baseline: row.baseline as string,
          old_model: row.old_model as string,
          new_model: row.new_model as string,
          rows_from: row.rows_from as ModelCheck['rows_from'],
          states: row.states as number,
          same_rows: row.same_rows === 1,
          stopped: row.stopped as string,
          asked: row.asked as number,
          cost: row.cost as number,
          pairs: pairs.get(row.run_id as string) ?? [],
        }),
      )
    },
  }
}

function putRun(sql: Statements, run: RunRecord, counts: readonly LabelCount[], states: Iterable<RunState>): void {
  sql.putRun.run(...runValues(run))
  const { seq } = sql.runSeq.get(run.run_id) as { seq: number }
  // The counts and states belong to `run`: recording a run again replaces them all.
  sql.clearRunLabels.run(run.run_id)
  for (const c of counts)
    sql.putRunLabel.run(run.run_id, c.question, c.label, c.count, c.states ?? null, c.squares ?? null)
  sql.clearRunStates.run(run.run_id)
  for (const s of states) sql.putRunState.run(seq, s.stateHash, s.rows)
}

function runValues(run: RunRecord): (string | number)[] {
  return [
    run.run_id,
    run.judgment,
    run.spec_hash,
    run.git_sha,
    run.model,
    run.rows,
    run.asked,
    run.cost,
    run.status,
    run.started_at,
    run.finished_at,
    run.cached,
    run.requests,
    run.command,
    run.source,
    run.source_hash,
    run.node,
    run.reported_model,
    run.states,
    JSON.stringify(run.fingerprints),
    JSON.stringify(run.fit ?? {}),
    JSON.stringify(run.routes ?? {}),
    JSON.stringify(run.sources ?? {}),
  ]
}

/** A run row as a record, its fields in column order, so that it serializes as selected. */
function runOf(row: SqlRow): RunRecord {
  return {
    ...row,
    fingerprints: JSON.parse(row.fingerprints as string),
    fit: JSON.parse(row.fit as string),
    routes: JSON.parse(row.routes as string),
    sources: JSON.parse(row.sources as string),
  } as unknown as RunRecord
}

function runStateOf(row: SqlRow): RunState {
  return { stateHash: row.state_hash as string, rows: row.rows as number }
}
