import { selectJudgments } from '../core/judge/select.ts'
import { runsToPrune } from '../core/reports/run-prune.ts'
import type { Project } from '../core/types.ts'
import type { App } from './app.ts'

/** A run whose row list pruning deletes (or would delete). */
export interface PrunedRun {
  readonly run_id: string
  readonly judgment: string
  readonly command: string
  readonly source: string
  readonly status: string
  readonly started_at: string
  /** States of its row list in the store: what deleting it removes. */
  readonly states: number
}

/** What pruning run row lists found, and deleted unless it was a dry run. */
export interface PrunedRuns {
  readonly dry_run: boolean
  /** Row lists kept per like series. */
  readonly keep: number
  readonly runs: readonly PrunedRun[]
  /** States in those row lists. */
  readonly states: number
  /** States deleted: 0 in a dry run. */
  readonly deleted: number
}

/**
 * Deletes the row lists (the states each run judged, `_judge_run_states`) of the runs of the
 * selected judgments that `runsToPrune` lets go, or with `apply` false only says which. Run
 * records, label counts, answers and states' values stay: drift, the runs pages and `judge runs`
 * are unchanged, and a pruned run's page says its rows were pruned. Reading creates no store.
 */
export function pruneRunStates(
  app: App,
  project: Project,
  judgment: string | null | undefined,
  keep: number,
  apply: boolean,
): PrunedRuns {
  const store = app.existingStore(project)
  if (!store) return { dry_run: !apply, keep, runs: [], states: 0, deleted: 0 }
  const names = selectJudgments(project, judgment, 'all').map((s) => s.name)
  const runs = runsToPrune(store.listRuns(names, Infinity), keep)
    .map(
      (r): PrunedRun => ({
        run_id: r.run_id,
        judgment: r.judgment,
        command: r.command,
        source: r.source,
        status: r.status,
        started_at: r.started_at,
        states: store.runStateCount(r.run_id),
      }),
    )
    .filter((r) => r.states > 0)
  const states = runs.reduce((sum, r) => sum + r.states, 0)
  const deleted = apply && runs.length > 0 ? store.deleteRunStates(runs.map((r) => r.run_id)) : 0
  return { dry_run: !apply, keep, runs, states, deleted }
}
