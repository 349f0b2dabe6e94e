import { modelFor, timestamp, type JudgeDeps } from '../core/judge/deps.ts'
import { labelCountsOf, newRunId, runRecord, type RowsOutcome } from '../core/judge/judge-rows.ts'
import type { Ledger } from '../core/judge/ledger.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { App } from './app.ts'

/** A finished pass over a command's rows, to be recorded. */
export interface Pass {
  readonly project: Project
  /**
   * The judgments whose label mix the rows are: the judgments a command names, and for `run` the
   * ones they depend on too (judged on the same rows). A judgment judged only as a dependency of a
   * candidate or of a test row is not recorded: its mix there is not a mix of its own rows.
   */
  readonly record: readonly Spec[]
  readonly outcome: RowsOutcome
  readonly ledger: Ledger
  readonly started: Date
}

/**
 * The one rule by which every command records runs: one run per recorded judgment, complete or
 * `failed: <error>`, with its label counts, in the store of the pass's project.
 */
export async function recordRuns(app: App, pass: Pass): Promise<RunRecord[]> {
  const deps = app.depsFor(pass.project)
  const sha = await app.files.gitSha(pass.project.dir)
  const finished = timestamp(app.now())
  return pass.record.map((spec) => {
    const run = runOf(deps, pass, spec, sha, finished)
    deps.store.recordRun(run, labelCountsOf(pass.outcome, spec.name, run.run_id), pass.outcome.states.get(spec.name)?.entries() ?? [])
    return run
  })
}

function runOf(deps: JudgeDeps, pass: Pass, spec: Spec, sha: string, finished: string): RunRecord {
  const tally = pass.ledger.tally(spec.name)
  return runRecord({
    run_id: newRunId(pass.started), judgment: spec.name, spec_hash: spec.hash, git_sha: sha, model: modelFor(spec, deps),
    rows: pass.outcome.rows.get(spec.name) ?? 0, asked: tally.asked, cost: tally.cost, started_at: timestamp(pass.started), finished_at: finished,
    cached: tally.cached, requests: tally.requests, error: pass.outcome.error,
  })
}
