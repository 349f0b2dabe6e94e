import t from 'tap'
import { EventEmitter } from 'node:events'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { connect } from 'node:net'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { readConfig } from '../../src/config.ts'
import { createHandler, type AnsweredBy } from '../../src/http/handler.ts'
import { countingStore } from '../helpers/counting-store.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

/** A request the handler reads from events, and a response that records what was written. */
function exchange(body: string, headers: Record<string, string> = {}) {
  const req = Object.assign(new EventEmitter(), {
    method: 'POST',
    url: '/v1/judge',
    complete: false,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
  })
  const written: { status?: number; headers?: Record<string, string>; body?: string } = {}
  const set = new Map<string, string>()
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    destroyed: false,
    writableFinished: false,
    setHeader: (name: string, value: string) => set.set(name, value),
    getHeader: (name: string) => set.get(name),
    writeHead(status: number, h: Record<string, string>) {
      written.status = status
      written.headers = h
      res.headersSent = true
    },
    end(text: string) {
      written.body = text
      res.writableFinished = true
    },
  })
  return {
    req: req as unknown as IncomingMessage,
    res: res as unknown as ServerResponse,
    written,
    /** Delivers the body and ends it, as node:http does once the request is in. */
    send() {
      req.emit('data', Buffer.from(body))
      req.complete = true
      req.emit('end')
    },
  }
}

t.test(
  'a kept reply is sent in the turn its body ends, without a promise, and without reading the store',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const { store, reads } = countingStore()
    const handler = createHandler(readConfig({ JUDGE_PROJECTS: dir, JUDGE_SERVER_TOKEN: 'tok-123456' }, dir), {
      engine: createFakeEngine(),
      openStore: () => store,
    })
    t.teardown(() => handler.close())
    const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello' } })
    const auth = { authorization: 'Bearer tok-123456' }
    const first = exchange(body, auth)
    handler(first.req, first.res)
    first.send()
    t.equal(first.written.status, undefined, 'a row to ask is not answered at once')
    t.equal(await handler.idle(5000), true)
    t.equal(first.written.status, 200)

    const second = exchange(body, auth)
    handler(second.req, second.res)
    second.send()
    t.equal(await handler.idle(5000), true)
    t.equal(second.written.status, 200)
    t.ok(
      Object.values(JSON.parse(second.written.body!)).every((a: any) => a.cached),
      'answered from the store',
    )
    const lookups = reads()
    const third = exchange(body, auth)
    handler(third.req, third.res)
    third.send()
    t.equal(third.written.status, 200, 'the same body: answered before anything else could run')
    t.equal(third.written.body, second.written.body, 'with the same reply')
    const { 'x-request-id': thirdId, ...thirdHeaders } = third.written.headers!
    const { 'x-request-id': secondId, ...secondHeaders } = second.written.headers!
    t.same(thirdHeaders, secondHeaders, 'and the same headers')
    t.not(thirdId, secondId, 'but for the id of each request')
    t.equal(reads(), lookups, 'from the kept reply: the store was not asked')
    const other = exchange(JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello', extra: 1 } }), auth)
    handler(other.req, other.res)
    other.send()
    t.equal(await handler.idle(5000), true)
    t.equal(other.written.status, 200, 'another body of a stored row goes on into the endpoint')
    t.equal(await handler.idle(0), true, 'nothing left in flight')
  },
)

t.test(
  'every error and every request gets the same reply whether its body comes in chunks or with its length, and a kept reply is answered as kept',
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML,
      'bad.judge.yaml': 'state: [message]\nquestions: nope\n',
      'candidate.judge.yaml': SPAM_YAML.replace('name: spam', 'name: candidate'),
    })
    const taken: AnsweredBy[] = []
    // Both servers ask the same model, so that the row the second stores is a cache hit for the first, which has no engine.
    const server = await startJudgeServer(
      t,
      dir,
      { JUDGE_SERVER_TOKEN: 'tok-123456', ENGINE_MODEL: 'fake-1' },
      { engine: null, trace: (by) => taken.push(by) },
    )
    const seedStore = await startJudgeServer(t, dir, { ENGINE_MODEL: 'fake-1' }, { engine: createFakeEngine() })
    t.equal((await seedStore.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'known' } })).status, 200)
    const cached = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'known' } })
    const bodies: [string, string][] = [
      ['not JSON', '{"path":'],
      ['an array', '[1]'],
      ['too deep', '['.repeat(70) + ']'.repeat(70)],
      ['an unknown field', JSON.stringify({ path: 'spam.judge.yaml', row: {}, extra: 1 })],
      ['no path', JSON.stringify({ row: { message: 'known' } })],
      ['a path out', JSON.stringify({ path: '../x.judge.yaml', row: { message: 'known' } })],
      ['a missing spec', JSON.stringify({ path: 'missing.judge.yaml', row: { message: 'known' } })],
      ['a spec error', JSON.stringify({ path: 'bad.judge.yaml', row: { message: 'known' } })],
      ['a missing column', JSON.stringify({ path: 'spam.judge.yaml', row: { text: 'known' } })],
      ['an unknown node', JSON.stringify({ path: 'spam.judge.yaml', node: 'nope', row: { message: 'known' } })],
      ['a row to ask without an engine key', JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'new' } })],
      ['a row kept with log', JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'known' }, log: true })],
      [
        'a shadow',
        JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'known' }, shadow: 'candidate.judge.yaml' }),
      ],
      ['a cached row', cached],
    ]
    const right = { authorization: 'Bearer tok-123456' }
    const wrong = { authorization: 'Bearer wrong-token' }
    const crossSite = { ...right, origin: 'https://evil.example' }
    for (const [what, body] of bodies) {
      for (const [who, headers] of [
        ['the right token', right],
        ['a wrong token', wrong],
        ['another site', crossSite],
      ] as const) {
        taken.length = 0
        // Sent in chunks without a length, then with its length: the second of a row the store holds is a kept reply.
        // The same request id, which a 5xx body shows.
        const full = await rawRequest(
          server.url,
          'POST',
          '/v1/judge',
          { ...headers, 'x-request-id': 'same', 'transfer-encoding': 'chunked' },
          [body],
        )
        const fast = await rawRequest(
          server.url,
          'POST',
          '/v1/judge',
          { ...headers, 'x-request-id': 'same', 'content-length': String(Buffer.byteLength(body)) },
          [body],
        )
        const refused = headers !== right
        const expected: AnsweredBy[] = refused ? ['guard', 'guard'] : ['full', body === cached ? 'fast' : 'full']
        t.same(taken, expected, `${what}, ${who}: answered by ${expected.join(' then ')}`)
        if (body === cached && !refused) t.equal(fast.status, 200, 'the stored row is answered from its kept reply')
        t.equal(fast.status, full.status, `${what}, ${who}: the same status (${full.status})`)
        t.equal(fast.text, full.text, `${what}, ${who}: the same body`)
        for (const name of ['content-type', 'www-authenticate', 'x-content-type-options', 'cache-control'])
          t.equal(fast.headers[name], full.headers[name], `${what}: the same ${name}`)
      }
    }
    t.equal(await server.running.handler.idle(5000), true)
    t.same(server.logs, [], "nothing was the server's fault")
  },
)

t.test('a spec edit (an act rule) is served within 2 s of the file changing', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const server = await startJudgeServer(t, dir, {}, { engine: createFakeEngine(), now: () => new Date(clock) })
  const body = { path: 'spam.judge.yaml', row: { message: 'Free entry! Text WIN' } }
  t.equal((await server.post('/v1/judge', body)).status, 200, 'the row is asked and stored')
  const before = await server.post('/v1/judge', body)
  t.ok(before.body.is_spam.cached)
  t.not(before.body.is_spam.route, 'edited')
  writeFileSync(
    join(dir, 'spam.judge.yaml'),
    SPAM_YAML.replace(/act:[\s\S]*$/, 'act:\n  is_spam:\n    - route: edited\n'),
  )
  const edited = clock
  for (; clock <= edited + 2000; clock += 250) {
    if ((await server.post('/v1/judge', body)).body.is_spam.route === 'edited') break
  }
  t.ok(clock - edited <= 2000, `the new route is served ${clock - edited} ms after the edit`)
  const chunked = await rawRequest(server.url, 'POST', '/v1/judge', { 'transfer-encoding': 'chunked' }, [
    JSON.stringify(body),
  ])
  t.equal(JSON.parse(chunked.text).is_spam.route, 'edited', 'sent in chunks too')
  t.equal((await server.post('/v1/judge', body)).body.is_spam.route, 'edited', 'and the kept reply is the new one')
})

t.test('a shutdown waits for a request whose body is still arriving; a client gone mid-body ends it', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, {}, { engine: createFakeEngine() })
  const { port } = new URL(server.url)
  const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'slowly' } })
  const head = `POST /v1/judge HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`
  const socket = connect(Number(port), '127.0.0.1')
  let response = ''
  socket.on('data', (d) => (response += d))
  const closed = new Promise((resolve) => socket.on('close', resolve))
  socket.write(head + body.slice(0, 10))
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.equal(await server.running.handler.idle(50), false, 'the request is in flight while its body arrives')
  socket.end(body.slice(10))
  await closed
  t.match(response, /^HTTP\/1\.1 200 /)
  t.equal(await server.running.handler.idle(1000), true)

  const gone = connect(Number(port), '127.0.0.1')
  const goneClosed = new Promise((resolve) => gone.on('close', resolve))
  gone.write(head + body.slice(0, 10))
  await new Promise((resolve) => setTimeout(resolve, 50))
  gone.destroy()
  await goneClosed
  t.equal(await server.running.handler.idle(2000), true, 'a client gone mid-body leaves nothing in flight')
})
