import { driftOf, likeDriftOf, listRuns, runHistoryOf, type Drift, type LikeDrift, type PublicRun } from '../../app/runs.ts'
import type { LikeFilter } from '../../core/reports/like-runs.ts'
import { UsageError } from '../../errors.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import { shadowAgreement, type ShadowAgreement } from '../../core/reports/shadow.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

/** What GET /runs shows; GET /v1/runs and GET /v1/drift answer parts of it. */
export interface RunsData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  readonly node: string | null
  readonly runs: readonly PublicRun[]
  readonly judgments: readonly RunsJudgment[]
}

/** One judgment on the runs page: its drift, each question's labels in spec order, and when each run started. */
export interface RunsJudgment {
  readonly name: string
  /** Every run against the previous one (the interface's drift). */
  readonly drift: Drift
  /** Each run against the previous complete run of the same command and source. */
  readonly like: LikeDrift
  readonly labels: Readonly<Record<string, readonly string[]>>
  /** The start of each of its runs (UTC), by run id, for the charts' axes. */
  readonly started: Readonly<Record<string, string>>
  /** Each shadow candidate's agreement with this judgment's live answers, per question. */
  readonly shadows: readonly ShadowRow[]
}

/** A shadow candidate's agreement with the live answers of one question. */
export interface ShadowRow {
  readonly candidate: string
  readonly candidate_hash: string
  readonly question: string
  readonly rows: number
  readonly agree: number
  readonly agreement: number
  /** When the last pair was recorded (UTC). */
  readonly last: string
}

/** GET /v1/runs's data: the runs of `path` (optionally one `node`), newest first, at most 50. */
export function runsListData(ctx: ServerContext, query: URLSearchParams): PublicRun[] {
  return listRuns(ctx.runtime, loadRequested(ctx, param(query, 'path')), param(query, 'node'))
}

/**
 * GET /v1/drift's data: the one judgment named by `node`, or the only one the path selects. Every
 * run against the previous one; with `command`, `source` or `completed`, the like runs the filter keeps.
 */
export function driftData(ctx: ServerContext, query: URLSearchParams): Drift | LikeDrift {
  const project = loadRequested(ctx, param(query, 'path'))
  const filter = likeFilterOf(query)
  if (filter === null) return driftOf(ctx.runtime, project, param(query, 'node'))
  return likeDriftOf(ctx.runtime, project, param(query, 'node'), filter)
}

/** The like-runs filter of a query; null when it names none (the interface's drift). */
export function likeFilterOf(query: URLSearchParams): LikeFilter | null {
  const [command, source, completed] = [param(query, 'command'), param(query, 'source'), param(query, 'completed')]
  if (command === null && source === null && completed === null) return null
  if (completed !== null && completed !== 'true' && completed !== 'false') {
    throw new UsageError(`completed must be true or false, not ${JSON.stringify(completed.slice(0, 40))}`)
  }
  return { command, source, completed: completed === 'true' }
}

/** The runs page's data, from the query's `path` and optional `node`: what GET /runs shows and GET /v1/runs-page answers. */
export function runsData(ctx: ServerContext, query: URLSearchParams): RunsData {
  const path = param(query, 'path')
  const node = param(query, 'node')
  const project = loadRequested(ctx, path)
  const store = ctx.runtime.existingStore(project)
  return {
    path: path!,
    node,
    runs: listRuns(ctx.runtime, project, node),
    judgments: selectJudgments(project, node, 'all').map((spec) => {
      const { drift, like, started } = runHistoryOf(ctx.runtime, project, spec)
      return {
        name: spec.name, drift, like, labels: Object.fromEntries(spec.questions.map((q) => [q.name, q.labels])), started,
        shadows: shadowAgreement(store?.shadowPairs(spec.name) ?? []).map(shadowRow),
      }
    }),
  }
}

function shadowRow(s: ShadowAgreement): ShadowRow {
  return { candidate: s.candidate, candidate_hash: s.candidateHash, question: s.question, rows: s.rows, agree: s.agree, agreement: s.agreement, last: s.last }
}
