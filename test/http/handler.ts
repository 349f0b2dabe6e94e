import t from 'tap'
import type { Test } from 'tap'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readConfig } from '../../src/config.ts'
import { createHandler, splitTarget } from '../../src/http/handler.ts'
import { jsonReply } from '../../src/http/reply.ts'
import { ROUTES } from '../../src/http/routes.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

async function listen(t: Test, listener: RequestListener) {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  }))
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
  const judged = await fetch(`${url}/v1/judge`, { method: 'POST', body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hi' } }) })
  t.equal(judged.status, 200)
  t.same(Object.keys((await judged.json()) as object).sort(), ['is_spam', 'topic', 'urgency'])
  t.equal((await fetch(`${url}/elsewhere`)).status, 404, 'without next, unknown paths are 404')
})

t.test('with next, paths the handler has no route for are passed on, before any token check', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir, JUDGE_SERVER_TOKEN: 'tok' }, dir))
  t.teardown(() => handler.close())
  const url = await listen(t, (req, res) => handler(req, res, () => {
    res.writeHead(418)
    res.end('outer')
  }))
  const outer = await fetch(`${url}/metrics`)
  t.equal(outer.status, 418)
  t.equal(await outer.text(), 'outer')
  t.equal((await fetch(`${url}/v1/runs?path=spam.judge.yaml`)).status, 401, 'its own routes still need the token')
  t.equal((await fetch(`${url}/runs`, { method: 'POST' })).status, 401, 'a wrong method on its route is its own')
})

t.test('idle waits for requests in flight, and after close requests are refused with 503', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), { engine: createFakeEngine({ latencyMs: 100 }) })
  const url = await listen(t, handler)
  const pending = fetch(`${url}/v1/judge`, { method: 'POST', body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'slow' } }) })
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(await handler.idle(5000), true)
  t.equal((await pending).status, 200)
  t.equal(await handler.close(1000), true)
  const api = await fetch(`${url}/v1/runs?path=spam.judge.yaml`)
  t.equal(api.status, 503)
  t.same(await api.json(), { error: 'the server is shutting down' })
  const page = await fetch(`${url}/`)
  t.equal(page.status, 503)
  t.match(await page.text(), /<h1>503 Service Unavailable<\/h1>/)
})

t.test('an unexpected error is a 500 with nothing of its details, logged with the stack', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const routes = [...ROUTES, { method: 'GET', path: '/v1/boom', value: () => { throw new TypeError(`broke in ${dir}`) } },
    { method: 'GET', path: '/v1/after', value: () => ({ ...jsonReply({ ok: true }), after: async () => { throw new Error('late failure') } }) },
    { method: 'GET', path: '/v1/bad-header', value: () => ({ ...jsonReply({}), headers: { location: 'a\nb' } }) }]
  const server = await startJudgeServer(t, dir, {}, { routes })
  const res = await server.get('/v1/boom')
  t.equal(res.status, 500)
  t.same(res.body, { error: 'internal error; the server log has the details' })
  t.match(server.logs[0], /^internal error on GET \/v1\/boom: TypeError: broke in \.\n/)
  t.notMatch(server.logs[0], dir)
  t.equal((await server.get('/v1/after')).status, 200)
  await server.running.handler.idle(1000)
  t.match(server.logs.at(-1), /^after-response task failed: late failure$/)
  await t.rejects(server.get('/v1/bad-header'), 'a response that cannot be written drops the connection')
  await server.running.handler.idle(1000)
  t.match(server.logs.at(-1), /^internal error while answering: TypeError.*location/)
  t.equal((await server.get('/v1/runs?path=spam.judge.yaml')).status, 200, 'and the server carries on')
})

t.test('a request target splits into a literal path and its query', async (t) => {
  t.same(splitTarget('/runs?path=a%2Fb&node=x'), { pathname: '/runs', query: new URLSearchParams('path=a%2Fb&node=x') })
  t.equal(splitTarget('//evil.example/runs').pathname, '//evil.example/runs')
  t.equal(splitTarget('/').query.size, 0)
})
