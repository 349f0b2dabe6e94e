import { driftOf, likeDriftOf, listRuns, type Drift, type LikeDrift, type PublicRun } from '../../app/runs.ts'
import type { LikeFilter } from '../../core/reports/like-runs.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type Endpoint } from '../context.ts'
import { param } from '../params.ts'
import { jsonReply } from '../reply.ts'

/** GET /v1/runs: the runs of `path` (optionally one judgment, named by `node`), newest first, at most 50. */
export const runsEndpoint: Endpoint = (ctx, request) => {
  const query = request.query
  const runs: PublicRun[] = listRuns(ctx.runtime, loadRequested(ctx, param(query, 'path')), param(query, 'node'))
  return jsonReply(runs)
}

/**
 * GET /v1/drift: drift per question of the one judgment named by `node`, or the only one the path
 * selects. Every run against the previous one; with `command`, `source` or `completed`, the like
 * runs the filter keeps.
 */
export const driftEndpoint: Endpoint = (ctx, request) => {
  const query = request.query
  const project = loadRequested(ctx, param(query, 'path'))
  const filter = likeFilterOf(query)
  const drift: Drift | LikeDrift =
    filter === null
      ? driftOf(ctx.runtime, project, param(query, 'node'))
      : likeDriftOf(ctx.runtime, project, param(query, 'node'), filter)
  return jsonReply(drift)
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
