import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as server from '../src/server.ts'
import { createHandler, JUDGE_ROUTES, readConfig, ROUTES, startServer } from '../src/server.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { SPAM_YAML } from './helpers/specs.ts'

t.test(
  'the server entry gives the handler, the server, their routes and the configuration, and nothing of the CLI',
  async (t) => {
    t.same(Object.keys(server).sort(), ['JUDGE_ROUTES', 'ROUTES', 'createHandler', 'readConfig', 'startServer'])
    t.same(
      JUDGE_ROUTES.map((r) => `${r.method} ${r.path}`),
      ['POST /v1/judge'],
    )
    t.equal(ROUTES[0], JUDGE_ROUTES[0], 'the whole server answers the same judge route')
  },
)

t.test('a handler of JUDGE_ROUTES answers POST /v1/judge and passes every other path on', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), {
    engine: createFakeEngine(),
    routes: JUDGE_ROUTES,
    log: () => {},
  })
  t.teardown(() => handler.close())
  const http = createServer((req, res) => handler(req, res, () => res.writeHead(418).end('mine')))
  await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening))
  t.teardown(() => new Promise<void>((closed) => http.close(() => closed())))
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const judged = await fetch(`${url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hi' } }),
  })
  t.equal(judged.status, 200)
  t.same(Object.keys((await judged.json()) as object).sort(), ['is_spam', 'topic', 'urgency'])
  t.equal(
    (await fetch(`${url}/runs?path=spam.judge.yaml`)).status,
    418,
    'a page route of the whole server is passed on',
  )
  t.equal((await fetch(`${url}/v1/runs?path=spam.judge.yaml`)).status, 418)
})

t.test('startServer serves JUDGE_ROUTES alone when told, answering other paths 404', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const running = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    engine: createFakeEngine(),
    routes: JUDGE_ROUTES,
    log: () => {},
  })
  t.teardown(() => running.stop(2000))
  const missing = await fetch(`${running.url}/v1/runs?path=spam.judge.yaml`)
  t.equal(missing.status, 404)
  t.same(await missing.json(), { error: 'nothing here: /v1/runs', name: 'NotFoundError' })
  const page = await fetch(`${running.url}/runs`)
  t.equal(page.status, 404)
  t.match(await page.text(), /<h1>404 Not Found<\/h1>/, 'an error answered as a page loads the error page then')
})
