import t from 'tap'
import { createRouter } from '../../src/http/router.ts'
import { isApiPath, ROUTES } from '../../src/http/routes.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test(
  "the route table holds the seed's endpoints, the accuracy report, the spend, the comparison, forgetting, the pages' JSON twins and the undo, each once",
  async (t) => {
    t.same(
      ROUTES.map((r) => `${r.method} ${r.path}`),
      [
        'POST /v1/judge',
        'GET /v1/runs',
        'GET /v1/drift',
        'GET /v1/accuracy',
        'GET /v1/spend',
        'GET /v1/compare',
        'POST /v1/forget',
        'GET /',
        'GET /v1/pages',
        'GET /v1/projects',
        'GET /runs',
        'GET /v1/pages/runs',
        'GET /v1/runs-page',
        'GET /runs/{run_id}',
        'GET /v1/pages/runs/{run_id}',
        'GET /v1/runs/{run_id}',
        'GET /accuracy',
        'GET /v1/pages/accuracy',
        'GET /compare',
        'GET /v1/pages/compare',
        'GET /review',
        'GET /v1/pages/review',
        'GET /v1/review',
        'POST /review',
        'POST /review/undo',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
      ],
    )
    t.doesNotThrow(() => createRouter(ROUTES))
  },
)

t.test('paths under /v1/ are the API, answered in JSON', async (t) => {
  t.ok(isApiPath('/v1/judge'))
  t.ok(isApiPath('/v1/nope'))
  t.ok(isApiPath('/v1'))
  t.notOk(isApiPath('/v10/judge'))
  t.notOk(isApiPath('/runs'))
})

t.test(
  'an unknown route is 404 and a wrong method 405 with Allow, in JSON under /v1/ and as a page elsewhere',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const server = await startJudgeServer(t, dir)
    const apiMissing = await server.get('/v1/nope')
    t.equal(apiMissing.status, 404)
    t.same(apiMissing.body, { error: 'nothing here: /v1/nope', name: 'NotFoundError' })
    const pageMissing = await server.get('/nope?x=<b>')
    t.equal(pageMissing.status, 404)
    t.match(pageMissing.headers.get('content-type'), /^text\/html/)
    t.equal(pageMissing.headers.get('x-frame-options'), 'DENY')
    const getJudge = await server.get('/v1/judge')
    t.equal(getJudge.status, 405)
    t.equal(getJudge.headers.get('allow'), 'POST')
    t.same(getJudge.body, { error: 'GET is not allowed on /v1/judge; allowed: POST', name: 'MethodNotAllowedError' })
    const postRuns = await server.post('/runs', {})
    t.equal(postRuns.status, 405)
    t.equal(postRuns.headers.get('allow'), 'GET, HEAD')
    t.match(postRuns.text, /<h1>405 Method Not Allowed<\/h1>/)
    t.equal((await server.call('DELETE', '/v1/runs')).headers.get('allow'), 'GET, HEAD')
    t.equal(
      (await rawRequest(server.url, 'GET', '//v1/runs?path=spam.judge.yaml', {})).status,
      404,
      'a doubled slash is no host',
    )
  },
)

t.test('HEAD answers a GET route with its headers and no body', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  const get = await server.get('/runs?path=spam.judge.yaml')
  const head = await rawRequest(server.url, 'HEAD', '/runs?path=spam.judge.yaml', {})
  t.equal(head.status, 200)
  t.equal(head.text, '')
  t.equal(head.headers['content-length'], String(Buffer.byteLength(get.text)))
  t.equal(head.headers['content-security-policy'], get.headers.get('content-security-policy'))
  t.equal((await rawRequest(server.url, 'HEAD', '/v1/runs?path=spam.judge.yaml', {})).status, 200)
})
