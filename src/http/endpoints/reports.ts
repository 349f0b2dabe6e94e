import { driftOf, driftOfSpec, listRuns, publicRun, type Drift, type PublicRun } from '../../app/reports.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import { shadowAgreement, type ShadowAgreement } from '../../core/reports/shadow.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { specFolders } from '../folders.ts'

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

/** The query parameter `name`, with an empty value counted as absent (an empty form field). */
export function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name)
  return value === null || value === '' ? null : value
}

/** GET /v1/runs's data: the runs of `path` (optionally one `node`), newest first, at most 50. */
export function runsListData(ctx: ServerContext, query: URLSearchParams): PublicRun[] {
  return listRuns(ctx.runtime, loadRequested(ctx, param(query, 'path')), param(query, 'node'))
}

/** GET /v1/drift's data: the one judgment named by `node`, or the only one the path selects. */
export function driftData(ctx: ServerContext, query: URLSearchParams): Drift {
  return driftOf(ctx.runtime, loadRequested(ctx, param(query, 'path')), param(query, 'node'))
}

/** The runs page's data, from the query's `path` and optional `node`. */
export function runsData(ctx: ServerContext, query: URLSearchParams): RunsData {
  const path = param(query, 'path')
  const node = param(query, 'node')
  const project = loadRequested(ctx, path)
  const store = ctx.runtime.existingStore(project)
  return {
    path: path!,
    node,
    runs: listRuns(ctx.runtime, project, node),
    judgments: selectJudgments(project, node, 'all').map((spec) => ({
      name: spec.name,
      drift: driftOfSpec(ctx.runtime, project, spec),
      labels: Object.fromEntries(spec.questions.map((q) => [q.name, q.labels])),
      shadows: shadowAgreement(store?.shadowPairs(spec.name) ?? []),
    })),
  }
}

/** The home page's data: every folder of specs under the served folder, each loaded on its own. */
export function homeData(ctx: ServerContext): HomeFolder[] {
  return specFolders(ctx.config.projects).map((path) => {
    try {
      const project = loadRequested(ctx, path)
      const judgments = project.specs.map((s) => s.name)
      const [lastRun] = ctx.runtime.existingStore(project)?.listRuns(judgments, 1) ?? []
      return { path, judgments, lastRun: lastRun ? publicRun(lastRun) : null, error: null }
    } catch (error) {
      // One broken folder must not take the page down; it shows its error instead.
      return { path, judgments: [], lastRun: null, error: ctx.clean((error as Error).message) }
    }
  })
}
