import type { Endpoint } from './context.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { homePage } from './pages/home.ts'
import { runsPage } from './pages/runs.ts'
import { pageReply, jsonReply } from './reply.ts'
import { homeData } from './endpoints/home.ts'
import { driftData, runsData, runsListData } from './endpoints/runs.ts'
import { reviewJsonEndpoint, reviewPageEndpoint, undoEndpoint, verdictEndpoint } from './endpoints/review.ts'
import { serverSpend } from '../app/spend.ts'
import { loadRequested } from './context.ts'
import { param } from './params.ts'
import { accuracyData } from './endpoints/accuracy.ts'
import { accuracyPage } from './pages/accuracy.ts'
import { runPageData } from './endpoints/run.ts'
import { runPage } from './pages/run.ts'
import type { Route } from './router.ts'

/** GET /v1/runs: the runs of `path` (optionally one `node`), newest first, at most 50. */
export const runsEndpoint: Endpoint = (ctx, request) => jsonReply(runsListData(ctx, request.query))

/** GET /v1/drift: drift per question of one judgment. */
export const driftEndpoint: Endpoint = (ctx, request) => jsonReply(driftData(ctx, request.query))

/** GET /v1/spend: the server's engine spend per day in the store of `path`, and the daily cap. */
export const spendEndpoint: Endpoint = (ctx, request) =>
  jsonReply(serverSpend(ctx.runtime, loadRequested(ctx, param(request.query, 'path')), ctx.config.serverMaxDailyCost))

/** GET /v1/accuracy: one judgment's accuracy report. */
export const accuracyEndpoint: Endpoint = async (ctx, request) => jsonReply((await accuracyData(ctx, request.query)).report)

/** GET /accuracy: the accuracy page, from the same data object. */
export const accuracyPageEndpoint: Endpoint = async (ctx, request) => pageReply(accuracyPage(await accuracyData(ctx, request.query), request.token))

/** GET /: the folders of specs. */
export const homeEndpoint: Endpoint = async (ctx, request) => pageReply(homePage(await homeData(ctx), request.token))

/** GET /v1/projects: the home page's data as JSON, from the same data object. */
export const projectsEndpoint: Endpoint = async (ctx) => jsonReply(await homeData(ctx))

/** GET /runs: the runs page. */
export const runsPageEndpoint: Endpoint = (ctx, request) => pageReply(runsPage(runsData(ctx, request.query), request.token))

/** GET /v1/runs-page: the runs page's data as JSON, from the same data object (GET /v1/runs keeps the seed's list). */
export const runsPageJsonEndpoint: Endpoint = (ctx, request) => jsonReply(runsData(ctx, request.query))

/** GET /runs/{run_id}: a run's settings, label counts and rows with their answers, paged. */
export const runPageEndpoint: Endpoint = async (ctx, request) => pageReply(runPage(await runPageData(ctx, request), request.token))

/** GET /v1/runs/{run_id}: the run page's data as JSON, from the same data object. */
export const runJsonEndpoint: Endpoint = async (ctx, request) => jsonReply(await runPageData(ctx, request))

/**
 * Every route the server answers. JSON endpoints live under /v1/, pages at the top; a new
 * endpoint is one entry here (HEAD follows GET by itself).
 */
export const ROUTES: readonly Route<Endpoint>[] = [
  { method: 'POST', path: '/v1/judge', value: judgeEndpoint },
  { method: 'GET', path: '/v1/runs', value: runsEndpoint },
  { method: 'GET', path: '/v1/drift', value: driftEndpoint },
  { method: 'GET', path: '/v1/accuracy', value: accuracyEndpoint },
  { method: 'GET', path: '/v1/review', value: reviewJsonEndpoint },
  { method: 'GET', path: '/v1/projects', value: projectsEndpoint },
  { method: 'GET', path: '/v1/spend', value: spendEndpoint },
  { method: 'GET', path: '/v1/runs/{run_id}', value: runJsonEndpoint },
  { method: 'GET', path: '/v1/runs-page', value: runsPageJsonEndpoint },
  { method: 'GET', path: '/', value: homeEndpoint },
  { method: 'GET', path: '/runs', value: runsPageEndpoint },
  { method: 'GET', path: '/runs/{run_id}', value: runPageEndpoint },
  { method: 'GET', path: '/accuracy', value: accuracyPageEndpoint },
  { method: 'GET', path: '/review', value: reviewPageEndpoint },
  { method: 'POST', path: '/review', value: verdictEndpoint },
  { method: 'POST', path: '/review/undo', value: undoEndpoint },
]

/** Whether errors on `pathname` are answered as JSON (the API) rather than as a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/')
}
