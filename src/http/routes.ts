import { serverSpend } from '../app/spend.ts'
import { loadRequested, type Endpoint } from './context.ts'
import { forgetEndpoint } from './endpoints/forget.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { undoEndpoint, verdictEndpoint } from './endpoints/review.ts'
import { driftData, runsListData } from './endpoints/runs.ts'
import { accuracyPage } from './pages/accuracy.ts'
import { comparePage } from './pages/compare.ts'
import { homePage } from './pages/home.ts'
import { reviewModePage } from './pages/compare-review.ts'
import { runPage } from './pages/run.ts'
import { runsPage } from './pages/runs.ts'
import { param } from './params.ts'
import { jsonReply } from './reply.ts'
import type { Route } from './router.ts'
import { twin } from './twins.ts'
import { accuracyData } from './views/accuracy.ts'
import { compareData } from './views/compare.ts'
import { homeData } from './views/home.ts'
import { reviewModeData } from './views/compare-review.ts'
import { reviewerCookieHeaders } from './views/reviewer-cookie.ts'
import { runPageData } from './views/run.ts'
import { runsData } from './views/runs.ts'

/** GET /v1/runs: the runs of `path` (optionally one `node`), newest first, at most 50. */
export const runsEndpoint: Endpoint = (ctx, request) => jsonReply(runsListData(ctx, request.query))

/** GET /v1/drift: drift per question of one judgment. */
export const driftEndpoint: Endpoint = (ctx, request) => jsonReply(driftData(ctx, request.query))

/** GET /v1/spend: the server's engine spend per day in the store of `path`, and the daily cap. */
export const spendEndpoint: Endpoint = (ctx, request) =>
  jsonReply(serverSpend(ctx.runtime, loadRequested(ctx, param(request.query, 'path')), ctx.config.serverMaxDailyCost))

/** GET /v1/accuracy: one judgment's accuracy report, the `report` of the accuracy page's data. */
export const accuracyEndpoint: Endpoint = async (ctx, request) => jsonReply((await accuracyData(ctx, request)).report)

/** GET /v1/compare: a candidate spec against the live one on the kept rows, the `report` of the compare page's data. */
export const compareEndpoint: Endpoint = async (ctx, request) => jsonReply((await compareData(ctx, request)).report)

/**
 * Every route the server answers. JSON endpoints live under /v1/, pages at the top; a new
 * endpoint is one entry here (HEAD follows GET by itself), and a page with its JSON twin one
 * twin() declaration (src/http/twins.ts: the twin of page P is /v1/pages + P).
 */
export const ROUTES: readonly Route<Endpoint>[] = [
  { method: 'POST', path: '/v1/judge', value: judgeEndpoint },
  { method: 'GET', path: '/v1/runs', value: runsEndpoint },
  { method: 'GET', path: '/v1/drift', value: driftEndpoint },
  { method: 'GET', path: '/v1/accuracy', value: accuracyEndpoint },
  { method: 'GET', path: '/v1/spend', value: spendEndpoint },
  { method: 'GET', path: '/v1/compare', value: compareEndpoint },
  { method: 'POST', path: '/v1/forget', value: forgetEndpoint },
  ...twin({ path: '/', data: homeData, page: homePage, aliases: ['/v1/projects'] }),
  ...twin({ path: '/runs', data: runsData, page: runsPage, aliases: ['/v1/runs-page'] }),
  ...twin({ path: '/runs/{run_id}', data: runPageData, page: runPage, aliases: ['/v1/runs/{run_id}'] }),
  ...twin({ path: '/accuracy', data: accuracyData, page: accuracyPage }),
  ...twin({ path: '/compare', data: compareData, page: comparePage }),
  ...twin({ path: '/review', data: reviewModeData, page: reviewModePage, aliases: ['/v1/review'], headers: reviewerCookieHeaders }),
  { method: 'POST', path: '/review', value: verdictEndpoint },
  { method: 'POST', path: '/review/undo', value: undoEndpoint },
]

/** Whether errors on `pathname` are answered as JSON (the API) rather than as a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/')
}
