import t from 'tap'
import type { Test } from 'tap'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readConfig } from '../../src/config.ts'
import { createHandler, splitTarget } from '../../src/http/handler.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

async function listen(t: Test, listener: RequestListener) {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

t.test('the handler mounts inside another node:http server that answers its own paths', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), { engine: createFakeEngine() })
  t.teardown(() => handler.close())
  const url = await listen(t, (req, res) => {
    if (req.url === '/health') return void res.end('ok')
    handler(req, res)
  })
  t.equal(await (await fetch(`${url}/health`)).text(), 'ok')
  const judged = await fetch(`${url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hi' } }),
  })
  t.equal(judged.status, 200)
  t.same(Object.keys((await judged.json()) as object).sort(), ['is_spam', 'topic', 'urgency'])
  t.equal((await fetch(`${url}/elsewhere`)).status, 404, 'without next, unknown paths are 404')
})

t.test('with next, paths the handler has no route for are passed on, before any token check', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir, JUDGE_SERVER_TOKEN: 'tok' }, dir))
  t.teardown(() => handler.close())
  const url = await listen(t, (req, res) =>
    handler(req, res, () => {
      res.writeHead(418)
      res.end('outer')
    }),
  )
  const outer = await fetch(`${url}/outer/status`)
  t.equal(outer.status, 418)
  t.equal(await outer.text(), 'outer')
  t.equal((await fetch(`${url}/v1/runs?path=spam.judge.yaml`)).status, 401, 'its own routes still need the token')
  t.equal((await fetch(`${url}/runs`, { method: 'POST' })).status, 401, 'a wrong method on its route is its own')
})

t.test('idle waits for requests in flight, and after close requests are refused with 503', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), {
    engine: createFakeEngine({ latencyMs: 100 }),
  })
  const url = await listen(t, handler)
  const pending = fetch(`${url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'slow' } }),
  })
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(await handler.idle(5000), true)
  t.equal((await pending).status, 200)
  t.equal(await handler.close(1000), true)
  const api = await fetch(`${url}/v1/runs?path=spam.judge.yaml`)
  t.equal(api.status, 503)
  t.match(await api.json(), { error: 'the server is shutting down', name: 'ShuttingDownError', request_id: String })
  const page = await fetch(`${url}/`)
  t.equal(page.status, 503)
  t.match(await page.text(), /<h1>503 Service Unavailable<\/h1>/)
})

t.test('a request target splits into a literal path and its query', async (t) => {
  t.same(splitTarget('/runs?path=a%2Fb&node=x'), { pathname: '/runs', query: new URLSearchParams('path=a%2Fb&node=x') })
  t.equal(splitTarget('//evil.example/runs').pathname, '//evil.example/runs')
  t.equal(splitTarget('/').query.size, 0)
})
