import t from 'tap'
import type { Test } from 'tap'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readConfig } from '../../src/config.ts'
import { createHandler, splitTarget } from '../../src/http/handler.ts'
import { startServer } from '../../src/http/server.ts'
import { countingStore } from '../helpers/counting-store.ts'
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

t.test('with a token, a form carrying its own token is read only up to 16 KiB before the check', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: '0', JUDGE_SERVER_TOKEN: 'a-long-server-token' }, dir)
  const running = await startServer(config, { engine: createFakeEngine(), log: () => {} })
  t.teardown(() => running.stop(1000))
  const form = (extra: number) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `path=.&pad=${'x'.repeat(extra)}`,
  })
  t.equal((await fetch(`${running.url}/review`, form(20 * 1024))).status, 413)
  t.equal(
    (await fetch(`${running.url}/review`, form(10))).status,
    401,
    'a small form without the token is read, then refused',
  )
  const bearer = { ...form(20 * 1024), headers: { ...form(0).headers, authorization: 'Bearer a-long-server-token' } }
  t.equal(
    (await fetch(`${running.url}/review`, bearer)).status,
    400,
    'with the token in a header the full limit applies',
  )
})

t.test(
  'one POST /v1/judge, asked, stored or kept, reads its body once, parses it at most once and reads the store at most once',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const { store, reads } = countingStore()
    const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir }, dir), {
      engine: createFakeEngine(),
      openStore: () => store,
    })
    t.teardown(() => handler.close())
    // The request stream is watched: each reader of its body listens to its data once.
    let bodyReads = 0
    const url = await listen(t, (req, res) => {
      const on = req.on
      req.on = function (this: typeof req, event: string, listener: (...args: any[]) => void) {
        if (event === 'data') bodyReads++
        return on.call(this, event, listener)
      } as typeof req.on
      handler(req, res)
    })
    const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello' } })
    const parse = JSON.parse
    let parses = 0
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
      if (text === body) parses++
      return parse(text, reviver)
    }
    t.teardown(() => {
      JSON.parse = parse
    })
    for (const [what, parsed, stored] of [
      ['a row to ask', 1, 1],
      ['a row the store holds', 1, 1],
      ['a kept reply', 0, 0],
    ] as const) {
      ;[bodyReads, parses] = [0, 0]
      const before = reads()
      const res = await fetch(`${url}/v1/judge`, { method: 'POST', body })
      t.equal(res.status, 200, what)
      await res.text()
      t.equal(await handler.idle(1000), true)
      t.equal(bodyReads, 1, `${what}: the body read once`)
      t.equal(parses, parsed, `${what}: parsed ${parsed === 1 ? 'once' : 'not at all'}`)
      t.equal(reads() - before, stored, `${what}: the store read ${stored === 1 ? 'once' : 'not at all'}`)
    }
  },
)
