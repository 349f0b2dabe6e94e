import { driftOf, likeDriftOf, listRuns, type Drift, type LikeDrift, type PublicRun } from '../../app/runs.ts'
import type { LikeFilter } from '../../core/reports/like-runs.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

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
