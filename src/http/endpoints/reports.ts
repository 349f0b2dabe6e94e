import { driftByQuestion } from '../../core/reports/drift.ts'
import { shadowAgreement, type ShadowAgreement } from '../../core/reports/shadow.ts'
import { driftReport, RUNS_LIMIT, singleJudgment } from '../../core/reports/judgments.ts'
import { nodeOrAll } from '../../core/judge/select.ts'
import type { DriftEntry, Project, RunRecord, Spec } from '../../core/types.ts'
import { existingStore, loadRequested, type ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'

/** The fields of a run record the API answers with, in the seed's order (2.4). */
export const RUN_FIELDS = ['run_id', 'judgment', 'spec_hash', 'git_sha', 'model', 'rows', 'asked', 'cost', 'status', 'started_at', 'finished_at'] as const

/** A run record as the API gives it: the seed's fields and no others. */
export type PublicRun = Pick<RunRecord, (typeof RUN_FIELDS)[number]>

/** Drift per question, oldest run first (seed 4.3). */
export type Drift = Record<string, DriftEntry[]>

/** What GET /runs shows; GET /v1/runs and GET /v1/drift answer parts of it. */
export interface RunsData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  readonly node: string | null
  readonly runs: readonly PublicRun[]
  readonly judgments: readonly RunsJudgment[]
}

/** One judgment on the runs page: its drift, and each question's labels in spec order. */
export interface RunsJudgment {
  readonly name: string
  readonly drift: Drift
  readonly labels: Readonly<Record<string, readonly string[]>>
  /** Each shadow candidate's agreement with this judgment's live answers, per question. */
  readonly shadows: readonly ShadowAgreement[]
}

/** One folder of specs on the home page. */
export interface HomeFolder {
  readonly path: string
  readonly judgments: readonly string[]
  readonly lastRun: PublicRun | null
  /** Why the folder's specs do not load, or null. */
  readonly error: string | null
}

/** A run record cut down to the seed's fields. */
export function publicRun(run: RunRecord): PublicRun {
  return Object.fromEntries(RUN_FIELDS.map((f) => [f, run[f]])) as unknown as PublicRun
}

/** The runs of the judgments selected (`node`, or all the path selects), newest first, at most 50. */
export function runsOf(ctx: ServerContext, project: Project, node: string | null, limit = RUNS_LIMIT): PublicRun[] {
  const names = nodeOrAll(project, node).map((s) => s.name)
  return existingStore(ctx, project.dir)?.listRuns(names, limit).map(publicRun) ?? []
}

/** Drift per question of one judgment; every question is present, with no runs when none. */
export function driftOf(ctx: ServerContext, project: Project, spec: Spec): Drift {
  const store = existingStore(ctx, project.dir)
  return store ? driftReport(store, spec) : driftByQuestion([], spec.questions.map((q) => q.name))
}

/** The query parameter `name`, with an empty value counted as absent (an empty form field). */
export function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)
  return value === null || value === '' ? null : value
}

/** GET /v1/drift's data: the one judgment named by `node`, or the only one the path selects. */
export function driftData(ctx: ServerContext, query: URLSearchParams): Drift {
  const project = loadRequested(ctx, param(query, 'path'))
  return driftOf(ctx, project, singleJudgment(project, param(query, 'node')))
}

/** The runs page's data, from the query's `path` and optional `node`. */
export function runsData(ctx: ServerContext, query: URLSearchParams): RunsData {
  const path = param(query, 'path')
  const node = param(query, 'node')
  const project = loadRequested(ctx, path)
  const specs = nodeOrAll(project, node)
  return {
    path: path!,
    node,
    runs: runsOf(ctx, project, node),
    judgments: specs.map((spec) => ({
      name: spec.name,
      drift: driftOf(ctx, project, spec),
      labels: Object.fromEntries(spec.questions.map((q) => [q.name, q.labels])),
      shadows: shadowAgreement(existingStore(ctx, project.dir)?.shadowPairs(spec.name) ?? []),
    })),
  }
}

/** The home page's data: every folder of specs under the served folder, each loaded on its own. */
export function homeData(ctx: ServerContext): HomeFolder[] {
  return specFolders(ctx.config.projects).map((path) => {
    try {
      const project = loadRequested(ctx, path)
      const judgments = project.specs.map((s) => s.name)
      const [lastRun] = existingStore(ctx, project.dir)?.listRuns(judgments, 1) ?? []
      return { path, judgments, lastRun: lastRun ? publicRun(lastRun) : null, error: null }
    } catch (error) {
      // One broken folder must not take the page down; it shows its error instead.
      return { path, judgments: [], lastRun: null, error: ctx.clean((error as Error).message) }
    }
  })
}
