import { runDetail, type RunDetail } from '../../app/run-detail.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

/** What GET /runs/{run_id} shows and GET /v1/runs/{run_id} answers: a run and a page of its rows. */
export interface RunPageData extends RunDetail {
  /** The path as requested, relative to the served folder. */
  readonly path: string
}

/** The page of a run's rows a request asks for: a whole number from 1, default 1; past the last shows the last. */
export function runPageOf(raw: string | null): number {
  if (raw === null) return 1
  if (!/^[1-9]\d{0,8}$/.test(raw))
    throw new UsageError(`page must be a whole number from 1, not ${JSON.stringify(raw.slice(0, 40))}`)
  return Number(raw)
}

/** The data of a run page: the run named in the path, of the judgments `path` selects, and the page asked for. */
export async function runPageData(ctx: ServerContext, request: HttpRequest): Promise<RunPageData> {
  const path = param(request.query, 'path')
  const project = loadRequested(ctx, path)
  const page = runPageOf(param(request.query, 'page'))
  return { path: path!, ...(await runDetail(ctx.runtime, project, request.params.run_id, page)) }
}
