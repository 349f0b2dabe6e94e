import { lazy } from '../lazy.ts'
import { loadRequested, type Endpoint } from './context.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { param } from './params.ts'
import { jsonReply } from './reply.ts'
import type { Route } from './router.ts'
import { twin } from './twins.ts'

// Every endpoint but POST /v1/judge is loaded on its first request (src/lazy.ts): a server that
// answers judgments alone loads no page, no page's data and no use case beyond judging.
const probes = lazy<typeof import('./ops/probes.ts')>(import.meta.url, './ops/probes.ts')
const metrics = lazy<typeof import('./ops/metrics-endpoint.ts')>(import.meta.url, './ops/metrics-endpoint.ts')
const spending = lazy<typeof import('../app/spend.ts')>(import.meta.url, '../app/spend.ts')
const runs = lazy<typeof import('./endpoints/runs.ts')>(import.meta.url, './endpoints/runs.ts')
const forgetting = lazy<typeof import('./endpoints/forget.ts')>(import.meta.url, './endpoints/forget.ts')
const reviewing = lazy<typeof import('./endpoints/review.ts')>(import.meta.url, './endpoints/review.ts')
const accuracyData = lazy<typeof import('./page-data/accuracy.ts')>(import.meta.url, './page-data/accuracy.ts')
const compareData = lazy<typeof import('./page-data/compare.ts')>(import.meta.url, './page-data/compare.ts')
const homeData = lazy<typeof import('./page-data/home.ts')>(import.meta.url, './page-data/home.ts')
const runsData = lazy<typeof import('./page-data/runs.ts')>(import.meta.url, './page-data/runs.ts')
const runData = lazy<typeof import('./page-data/run.ts')>(import.meta.url, './page-data/run.ts')
const reviewData = lazy<typeof import('./page-data/compare-review.ts')>(
  import.meta.url,
  './page-data/compare-review.ts',
)
const cookies = lazy<typeof import('./page-data/reviewer-cookie.ts')>(import.meta.url, './page-data/reviewer-cookie.ts')
const homePage = lazy<typeof import('./pages/home.ts')>(import.meta.url, './pages/home.ts')
const runsPage = lazy<typeof import('./pages/runs.ts')>(import.meta.url, './pages/runs.ts')
const runPage = lazy<typeof import('./pages/run.ts')>(import.meta.url, './pages/run.ts')
const accuracyPage = lazy<typeof import('./pages/accuracy.ts')>(import.meta.url, './pages/accuracy.ts')
const comparePage = lazy<typeof import('./pages/compare.ts')>(import.meta.url, './pages/compare.ts')
const reviewPage = lazy<typeof import('./pages/compare-review.ts')>(import.meta.url, './pages/compare-review.ts')

/** GET /v1/spend: the server's engine spend per day in the store of `path`, and the daily cap. */
export const spendEndpoint: Endpoint = async (ctx, request) =>
  jsonReply(
    spending().serverSpend(
      ctx.runtime,
      loadRequested(ctx, param(request.query, 'path')),
      ctx.config.serverMaxDailyCost,
    ),
  )

/** GET /v1/accuracy: one judgment's accuracy report, the `report` of the accuracy page's data. */
export const accuracyEndpoint: Endpoint = async (ctx, request) =>
  jsonReply((await accuracyData().accuracyPageData(ctx, request)).report)

/** GET /v1/compare: a candidate spec against the live one on the kept rows, the `report` of the compare page's data. */
export const compareEndpoint: Endpoint = async (ctx, request) =>
  jsonReply((await compareData().compareData(ctx, request)).report)

/** POST /v1/judge alone: the routes of a handler that answers judgments and nothing else. */
export const JUDGE_ROUTES: readonly Route<Endpoint>[] = [{ method: 'POST', path: '/v1/judge', value: judgeEndpoint }]

/**
 * Every route the server answers. JSON endpoints live under /v1/, pages at the top; a new
 * endpoint is one entry here (HEAD follows GET by itself), and a page with its JSON twin one
 * twin() declaration (src/http/twins.ts: the twin of page P is /v1/pages + P). A page, its data
 * and an endpoint's module are loaded on the route's first request (src/lazy.ts).
 */
export const ROUTES: readonly Route<Endpoint>[] = [
  ...JUDGE_ROUTES,
  { method: 'GET', path: '/v1/runs', value: (ctx, request) => runs().runsEndpoint(ctx, request) },
  { method: 'GET', path: '/v1/drift', value: (ctx, request) => runs().driftEndpoint(ctx, request) },
  { method: 'GET', path: '/v1/accuracy', value: accuracyEndpoint },
  { method: 'GET', path: '/v1/spend', value: spendEndpoint },
  { method: 'GET', path: '/v1/compare', value: compareEndpoint },
  { method: 'POST', path: '/v1/forget', value: (ctx, request) => forgetting().forgetEndpoint(ctx, request) },
  ...twin({
    path: '/',
    data: (ctx) => homeData().homeData(ctx),
    page: (data, token) => homePage().homePage(data, token),
    aliases: ['/v1/projects'],
  }),
  ...twin({
    path: '/runs',
    data: (ctx, request) => runsData().runsData(ctx, request),
    page: (data, token) => runsPage().runsPage(data, token),
    aliases: ['/v1/runs-page'],
  }),
  ...twin({
    path: '/runs/{run_id}',
    data: (ctx, request) => runData().runPageData(ctx, request),
    page: (data, token) => runPage().runPage(data, token),
    aliases: ['/v1/runs/{run_id}'],
  }),
  ...twin({
    path: '/accuracy',
    data: (ctx, request) => accuracyData().accuracyPageData(ctx, request),
    page: (data, token) => accuracyPage().accuracyPage(data, token),
  }),
  ...twin({
    path: '/compare',
    data: (ctx, request) => compareData().compareData(ctx, request),
    page: (data, token) => comparePage().comparePage(data, token),
  }),
  ...twin({
    path: '/review',
    data: (ctx, request) => reviewData().reviewModeData(ctx, request),
    page: (data, token) => reviewPage().reviewModePage(data, token),
    aliases: ['/v1/review'],
    headers: (data, request) => cookies().reviewerCookieHeaders(data, request),
  }),
  { method: 'POST', path: '/review', value: (ctx, request) => reviewing().verdictEndpoint(ctx, request) },
  { method: 'POST', path: '/review/undo', value: (ctx, request) => reviewing().undoEndpoint(ctx, request) },
  // For whoever runs it (docs/deploy.md): probes and metrics.
  { method: 'GET', path: '/healthz', value: (ctx, request) => probes().healthzEndpoint(ctx, request) },
  { method: 'GET', path: '/readyz', value: (ctx, request) => probes().readyzEndpoint(ctx, request) },
  { method: 'GET', path: '/metrics', value: (ctx, request) => metrics().metricsEndpoint(ctx, request) },
]

/** Whether errors on `pathname` are answered as JSON (the API) rather than as a page. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/v1' || pathname.startsWith('/v1/')
}
