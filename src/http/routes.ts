import { loadRequested, type Endpoint } from './context.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { onFirstCall } from './lazy.ts'
import { param } from './params.ts'
import { jsonReply } from './reply.ts'
import type { Route } from './router.ts'
import { twin } from './twins.ts'

// Every endpoint but POST /v1/judge is imported on its first request (src/http/lazy.ts): a server
// that answers judgments alone loads no page, no page's data and no use case beyond judging.
const healthzEndpoint = onFirstCall(() => import('./ops/probes.ts').then((m) => m.healthzEndpoint))
const readyzEndpoint = onFirstCall(() => import('./ops/probes.ts').then((m) => m.readyzEndpoint))
const metricsEndpoint = onFirstCall(() => import('./ops/metrics-endpoint.ts').then((m) => m.metricsEndpoint))
const serverSpend = onFirstCall(() => import('../app/spend.ts').then((m) => m.serverSpend))
const runsEndpoint = onFirstCall(() => import('./endpoints/runs.ts').then((m) => m.runsEndpoint))
const driftEndpoint = onFirstCall(() => import('./endpoints/runs.ts').then((m) => m.driftEndpoint))
const accuracyPageData = onFirstCall(() => import('./page-data/accuracy.ts').then((m) => m.accuracyPageData))
const compareData = onFirstCall(() => import('./page-data/compare.ts').then((m) => m.compareData))
const forgetEndpoint = onFirstCall(() => import('./endpoints/forget.ts').then((m) => m.forgetEndpoint))
const verdictEndpoint = onFirstCall(() => import('./endpoints/review.ts').then((m) => m.verdictEndpoint))
const undoEndpoint = onFirstCall(() => import('./endpoints/review.ts').then((m) => m.undoEndpoint))
const homeData = onFirstCall(() => import('./page-data/home.ts').then((m) => m.homeData))
const homePage = onFirstCall(() => import('./pages/home.ts').then((m) => m.homePage))
const runsData = onFirstCall(() => import('./page-data/runs.ts').then((m) => m.runsData))
const runsPage = onFirstCall(() => import('./pages/runs.ts').then((m) => m.runsPage))
const runPageData = onFirstCall(() => import('./page-data/run.ts').then((m) => m.runPageData))
const runPage = onFirstCall(() => import('./pages/run.ts').then((m) => m.runPage))
const accuracyPage = onFirstCall(() => import('./pages/accuracy.ts').then((m) => m.accuracyPage))
const comparePage = onFirstCall(() => import('./pages/compare.ts').then((m) => m.comparePage))
const reviewModeData = onFirstCall(() => import('./page-data/compare-review.ts').then((m) => m.reviewModeData))
const reviewModePage = onFirstCall(() => import('./pages/compare-review.ts').then((m) => m.reviewModePage))
const reviewerCookieHeaders = onFirstCall(() =>
  import('./page-data/reviewer-cookie.ts').then((m) => m.reviewerCookieHeaders),
)

/** GET /v1/spend: the server's engine spend per day in the store of `path`, and the daily cap. */
export const spendEndpoint: Endpoint = async (ctx, request) =>
  jsonReply(
    await serverSpend(ctx.runtime, loadRequested(ctx, param(request.query, 'path')), ctx.config.serverMaxDailyCost),
  )

/** GET /v1/accuracy: one judgment's accuracy report, the `report` of the accuracy page's data. */
export const accuracyEndpoint: Endpoint = async (ctx, request) =>
  jsonReply((await accuracyPageData(ctx, request)).report)

/** GET /v1/compare: a candidate spec against the live one on the kept rows, the `report` of the compare page's data. */
export const compareEndpoint: Endpoint = async (ctx, request) => jsonReply((await compareData(ctx, request)).report)

/** POST /v1/judge alone: the routes of a handler that answers judgments and nothing else. */
export const JUDGE_ROUTES: readonly Route<Endpoint>[] = [{ method: 'POST', path: '/v1/judge', value: judgeEndpoint }]

/**
 * Every route the server answers. JSON endpoints live under /v1/, pages at the top; a new
 * endpoint is one entry here (HEAD follows GET by itself), and a page with its JSON twin one
 * twin() declaration (src/http/twins.ts: the twin of page P is /v1/pages + P). A page, its data
 * and an endpoint's module are named by a loader, imported on the route's first request.
 */
export const ROUTES: readonly Route<Endpoint>[] = [
  ...JUDGE_ROUTES,
  { method: 'GET', path: '/v1/runs', value: runsEndpoint },
  { method: 'GET', path: '/v1/drift', value: driftEndpoint },
  { method: 'GET', path: '/v1/accuracy', value: accuracyEndpoint },
  { method: 'GET', path: '/v1/spend', value: spendEndpoint },
  { method: 'GET', path: '/v1/compare', value: compareEndpoint },
  { method: 'POST', path: '/v1/forget', value: forgetEndpoint },
  ...twin({ path: '/', data: homeData, page: homePage, aliases: ['/v1/projects'] }),
  ...twin({ path: '/runs', data: runsData, page: runsPage, aliases: ['/v1/runs-page'] }),
  ...twin({ path: '/runs/{run_id}', data: runPageData, page: runPage, aliases: ['/v1/runs/{run_id}'] }),
  ...twin({ path: '/accuracy', data: accuracyPageData, page: accuracyPage }),
  ...twin({ path: '/compare', data: compareData, page: comparePage }),
  ...twin({
    path: '/review',
    data: reviewModeData,
    page: reviewModePage,
    aliases: ['/v1/review'],
    headers: reviewerCookieHeaders,
  }),
  { method: 'POST', path: '/review', value: verdictEndpoint },
  { method: 'POST', path: '/review/undo', value: undoEndpoint },
  // For whoever runs it (docs/deploy.md): probes and metrics.
  { method: 'GET', path: '/healthz', value: healthzEndpoint },
  { method: 'GET', path: '/readyz', value: readyzEndpoint },
  { method: 'GET', path: '/metrics', value: metricsEndpoint },
]

/** Whether errors on `pathname` are answered as JSON (the API) rather than as a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/')
}
