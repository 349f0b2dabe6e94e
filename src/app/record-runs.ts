import { relative, sep } from 'node:path'
import { modelFor, timestamp, type JudgeDeps } from '../core/judge/deps.ts'
import {
  fitOf,
  sourcesOf,
  labelCountsOf,
  newRunId,
  reportedModelOf,
  runRecord,
  type RowsOutcome,
} from '../core/judge/judge-rows.ts'
import type { Ledger } from '../core/judge/ledger.ts'
import { routeCountsOf } from '../core/judge/route-tally.ts'
import { dependenciesOf } from '../core/spec/project.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { checkModels, pendingChecks } from './model-check.ts'
import type { RowSource } from './plan.ts'

/** What a pass's rows were: the command that judged them and their source, named and hashed. */
export interface Provenance {
  readonly command: 'run' | 'test' | 'replay'
  /** A data file's path from the project folder, `answer key`, or `kept rows of <judgment>`. */
  readonly source: string
  readonly sourceHash: string
}

/** The provenance of `run` over a source: a data file by its path from the project folder and its bytes' hash. */
export async function sourceProvenance(app: App, project: Project, source: RowSource): Promise<Provenance> {
  if (source.kind === 'rows') return { command: 'run', source: 'rows given', sourceHash: '' }
  const path = relative(project.dir, source.file).split(sep).join('/')
  return { command: 'run', source: path, sourceHash: await app.files.contentHash(source.file) }
}

/** A finished pass over a command's rows, to be recorded. */
export interface Pass {
  readonly project: Project
  /**
   * The judgments whose label mix the rows are: the judgments a command names, and for `run` the
   * ones they depend on too (judged on the same rows). A judgment judged only as a dependency of a
   * candidate or of a test row is not recorded: its mix there is not a mix of its own rows.
   */
  readonly record: readonly Spec[]
  /** The judgments the command was asked for; a recorded one not among them was judged for them. */
  readonly named: readonly Spec[]
  readonly provenance: Provenance
  readonly outcome: RowsOutcome
  readonly ledger: Ledger
  readonly started: Date
  /** The run id of each recorded judgment, given when its run was opened (app/open-runs.ts); else new ones. */
  readonly runIds?: ReadonlyMap<string, string>
}

/**
 * The one rule by which every command records runs: one run per recorded judgment, complete or
 * `failed: <error>`, with its label counts and the states it judged, in the store of the pass's
 * project. Then each complete run whose engine reported another model than the previous complete
 * run of the same command and source gets its model check (app/model-check.ts), within what is
 * left of the pass's budget.
 */
export async function recordRuns(app: App, pass: Pass): Promise<RunRecord[]> {
  const deps = app.depsFor(pass.project)
  const sha = await app.files.gitSha(pass.project.dir)
  const finished = timestamp(app.now())
  const runs = pass.record.map((spec) => runOf(deps, pass, spec, sha, finished, fitOf(pass.outcome, spec)))
  const checks = pendingChecks(app, pass, runs)
  for (const run of runs)
    deps.store.recordRun(
      run,
      labelCountsOf(pass.outcome, run.judgment, run.run_id),
      pass.outcome.states.get(run.judgment)?.entries(),
    )
  await checkModels(app, pass, checks)
  return runs
}

/** The run of one recorded judgment of a pass as it stands, finished at `finished`, with the fit given. */
export function runOf(
  deps: JudgeDeps,
  pass: Pass,
  spec: Spec,
  sha: string,
  finished: string,
  fit: RunRecord['fit'],
): RunRecord {
  const tally = pass.ledger.tally(spec.name)
  const { command, source, sourceHash } = pass.provenance
  return runRecord({
    run_id: pass.runIds?.get(spec.name) ?? newRunId(pass.started),
    judgment: spec.name,
    spec_hash: spec.hash,
    git_sha: sha,
    model: modelFor(spec, deps),
    rows: pass.outcome.rows.get(spec.name) ?? 0,
    asked: tally.asked,
    cost: tally.cost,
    started_at: timestamp(pass.started),
    finished_at: finished,
    cached: tally.cached,
    requests: tally.requests,
    error: pass.outcome.error,
    command,
    source,
    source_hash: sourceHash,
    node: namedJudgmentOf(pass, spec),
    reported_model: reportedModelOf(pass.outcome.models.get(spec.name)),
    states: pass.outcome.states.get(spec.name)?.size ?? 0,
    fingerprints: Object.fromEntries(spec.questions.map((q) => [q.name, q.fingerprint])),
    fit,
    routes: routeCountsOf(spec, pass.outcome.routes.get(spec.name)),
    sources: sourcesOf(pass.outcome, spec),
  })
}

/** The judgment a run was made for: itself when the command named it, else the dependents named. */
function namedJudgmentOf(pass: Pass, spec: Spec): string {
  if (pass.named.includes(spec)) return spec.name
  return pass.named
    .filter((named) => dependenciesOf(pass.project, named).includes(spec))
    .map((s) => s.name)
    .join(', ')
}
