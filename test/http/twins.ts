import t from 'tap'
import { join } from 'node:path'
import type { HttpRequest, ServerContext } from '../../src/http/context.ts'
import { html } from '../../src/http/html.ts'
import { ROUTES } from '../../src/http/routes.ts'
import { twin, twinPath } from '../../src/http/twins.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { seedRuns } from '../helpers/seed-runs.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test('the twin of page P is /v1/pages + P, without a trailing slash', async (t) => {
  t.equal(twinPath('/'), '/v1/pages')
  t.equal(twinPath('/runs'), '/v1/pages/runs')
  t.equal(twinPath('/runs/{run_id}'), '/v1/pages/runs/{run_id}')
})

t.test(
  "one declaration routes the page, its twin and the twin's aliases, all from one call of the data builder each",
  async (t) => {
    let built = 0
    const routes = twin({
      path: '/things',
      data: () => ({ n: ++built }),
      page: (d, token) => html`<p>${d.n} ${token ?? ''}</p>`,
      aliases: ['/v1/things'],
    })
    t.same(
      routes.map((r) => `${r.method} ${r.path}`),
      ['GET /things', 'GET /v1/pages/things', 'GET /v1/things'],
    )
    const request = { query: new URLSearchParams(), params: {}, headers: {}, token: 'tok' } as unknown as HttpRequest
    const ctx = {} as ServerContext
    t.match(await routes[0].value(ctx, request), { status: 200, type: 'html', body: '<p>1 tok</p>' })
    t.match(await routes[1].value(ctx, request), { status: 200, type: 'json', body: '{"n":2}' })
    t.match(await routes[2].value(ctx, request), { status: 200, type: 'json', body: '{"n":3}' })
  },
)

t.test('every page of the server has its twin at /v1/pages, and no route is declared twice', async (t) => {
  const paths = ROUTES.map((r) => `${r.method} ${r.path}`)
  t.same(
    paths.filter((p, i) => paths.indexOf(p) !== i),
    [],
    'no duplicate route',
  )
  // The probes and the metrics are for whoever runs the server, not pages (docs/deploy.md).
  const OPERATORS = ['/healthz', '/readyz', '/metrics']
  const pages = ROUTES.filter(
    (r) => r.method === 'GET' && !r.path.startsWith('/v1/') && !OPERATORS.includes(r.path),
  ).map((r) => r.path)
  t.same(pages, ['/', '/runs', '/runs/{run_id}', '/accuracy', '/compare', '/review'])
  for (const page of pages) t.ok(paths.includes(`GET ${twinPath(page)}`), `${page} has ${twinPath(page)}`)
})

t.test('each earlier twin URL answers the same data as the twin at /v1/pages', async (t) => {
  const dir = t.testdir({ sms: { 'spam.judge.yaml': SPAM_YAML } })
  const [run] = seedRuns(join(dir, 'sms'), [{ judgment: 'spam', counts: { is_spam: { yes: 1, no: 3 } } }])
  const server = await startJudgeServer(t, dir)
  const pairs = [
    ['/v1/pages', '/v1/projects'],
    ['/v1/pages/runs?path=sms', '/v1/runs-page?path=sms'],
    [`/v1/pages/runs/${run.run_id}?path=sms`, `/v1/runs/${run.run_id}?path=sms`],
    ['/v1/pages/review?path=sms&reviewer=ann', '/v1/review?path=sms&reviewer=ann'],
  ]
  for (const [now, before] of pairs) {
    const [a, b] = [await server.get(now), await server.get(before)]
    t.equal(a.status, 200, now)
    t.match(a.headers.get('content-type'), /^application\/json/)
    t.equal(a.text, b.text, `${before} answers as ${now}`)
  }
  const accuracy = await server.get('/v1/pages/accuracy?path=sms')
  t.same(
    accuracy.body.report,
    (await server.get('/v1/accuracy?path=sms')).body,
    "GET /v1/accuracy is the report of the accuracy page's data",
  )
  t.equal(accuracy.body.path, 'sms')
})
