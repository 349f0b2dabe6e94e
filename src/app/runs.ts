import { driftByQuestion } from '../core/reports/drift.ts'
import { withComparisons, type ComparedDriftEntry } from '../core/reports/data-comparison.ts'
import { likeDrift, type LikeDriftEntry, type LikeFilter } from '../core/reports/like-runs.ts'
import { selectJudgments } from '../core/judge/select.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { Store } from '../ports/store.ts'
import { settleWhileReading } from './abandoned-runs.ts'
import type { App } from './app.ts'

/** Most run records a listing returns (docs/http-api.md, `GET /v1/runs`). */
export const RUNS_LIMIT = 50

/** The fields of a run record the interface lists, in the order of docs/http-api.md (`GET /v1/runs`). */
export const RUN_FIELDS = [
  'run_id',
  'judgment',
  'spec_hash',
  'git_sha',
  'model',
  'rows',
  'asked',
  'cost',
  'status',
  'started_at',
  'finished_at',
] as const

/**
 * What a run ran on, listed after the interface's fields: command, source, node, reported model, states; then how its
 * answers' p was obtained, per question (`sources`).
 */
export const PROVENANCE_FIELDS = [
  'command',
  'source',
  'source_hash',
  'node',
  'reported_model',
  'states',
  'sources',
] as const

/** A run record as `GET /v1/runs` and `judge runs` give it. */
export type PublicRun = Pick<RunRecord, (typeof RUN_FIELDS)[number] | (typeof PROVENANCE_FIELDS)[number]>

/** A run record cut down to the listed fields: the interface's, then its provenance. */
export function publicRun(run: RunRecord): PublicRun {
  return Object.fromEntries([...RUN_FIELDS, ...PROVENANCE_FIELDS].map((f) => [f, run[f]])) as unknown as PublicRun
}

/**
 * Drift per question, oldest run first (docs/http-api.md, `GET /v1/drift`): the interface's fields, then each run
 * against the previous like run (same data) and the previous run of its command on other data.
 */
export type Drift = Record<string, ComparedDriftEntry[]>

/** Drift per question between like runs, oldest run first. */
export type LikeDrift = Record<string, LikeDriftEntry[]>

/**
 * The runs of the judgments selected (`judgment`, or all the path selects), newest first, at most
 * `limit`: the same records for `judge runs` and `GET /v1/runs`. Reading creates no store.
 */
export function listRuns(
  app: App,
  project: Project,
  judgment: string | null | undefined,
  limit = RUNS_LIMIT,
): PublicRun[] {
  const names = selectJudgments(project, judgment, 'all').map((s) => s.name)
  return runsStore(app, project)?.listRuns(names, limit).map(publicRun) ?? []
}

/** The newest run of any judgment of the project, or null: reading creates no store. */
export function lastRunOf(app: App, project: Project): PublicRun | null {
  const [last] =
    runsStore(app, project)?.listRuns(
      project.specs.map((s) => s.name),
      1,
    ) ?? []
  return last ? publicRun(last) : null
}

/** The run of this id in the project's store, or null: reading creates no store. */
export function runById(app: App, project: Project, runId: string): RunRecord | null {
  return runsStore(app, project)?.getRun(runId) ?? null
}

/** Drift per question of one judgment (`judgment`, or the only one selected); every question present. */
export function driftOf(app: App, project: Project, judgment: string | null | undefined): Drift {
  const [spec] = selectJudgments(project, judgment, 'one')
  return driftOfSpec(app, project, spec)
}

/**
 * Drift per question of a judgment already chosen: every run against the previous one (docs/http-api.md, `GET
 * /v1/drift`), and against the previous runs on the same data and on other data, from one read of its label counts.
 */
export function driftOfSpec(app: App, project: Project, spec: Spec): Drift {
  const counts = runsStore(app, project)?.runLabelCounts(spec.name) ?? []
  const questions = spec.questions.map((q) => q.name)
  return withComparisons(driftByQuestion(counts, questions), likeDrift(counts, questions, []))
}

/** Drift between like runs of one judgment (`judgment`, or the only one selected), as the filter keeps them. */
export function likeDriftOf(
  app: App,
  project: Project,
  judgment: string | null | undefined,
  filter: LikeFilter,
): LikeDrift {
  const [spec] = selectJudgments(project, judgment, 'one')
  return likeDriftOfSpec(app, project, spec, filter)
}

/**
 * Drift between like runs of a judgment already chosen: each run against the previous complete
 * run of the same command and source, the change split into the model's part and the data's.
 */
export function likeDriftOfSpec(app: App, project: Project, spec: Spec, filter: LikeFilter = {}): LikeDrift {
  const store = runsStore(app, project)
  return likeDrift(
    store?.runLabelCounts(spec.name) ?? [],
    spec.questions.map((q) => q.name),
    store?.modelChecks(spec.name) ?? [],
    filter,
  )
}

/** A judgment's run history as the runs page shows it: both drifts and each run's start. */
export interface RunHistory {
  readonly drift: Drift
  readonly like: LikeDrift
  /** The start (UTC) of each run with label counts, by run id. */
  readonly started: Record<string, string>
}

/** Both drifts of a judgment and its runs' starts, from one read of its runs' label counts. */
export function runHistoryOf(app: App, project: Project, spec: Spec): RunHistory {
  const store = runsStore(app, project)
  const counts = store?.runLabelCounts(spec.name) ?? []
  const questions = spec.questions.map((q) => q.name)
  const like = likeDrift(counts, questions, store?.modelChecks(spec.name) ?? [], {})
  return {
    drift: withComparisons(driftByQuestion(counts, questions), like),
    like,
    started: Object.fromEntries(counts.map((c) => [c.run_id, c.started_at])),
  }
}

/**
 * The store of a project's runs, its abandoned runs recorded first (`failed: interrupted`), so that
 * a listing adds up to what was spent; null when there is none: reading creates no store.
 */
function runsStore(app: App, project: Project): Store | null {
  const store = app.existingStore(project)
  settleWhileReading(store, app.now())
  return store
}
