import t, { type Test } from 'tap'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { stringify } from 'csv-stringify/sync'
import { cli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { simulatedAnswers } from './helpers/simulated-model.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer, type ScriptedReply } from './helpers/system-one-server.ts'
import { createVirtualClock } from './helpers/virtual-clock.ts'

// What an engine cannot do to judge: answer more than judge reads, make it ask again without
// waiting, or slip a secret or a stray character into a log through its request ids.

const MiB = 2 ** 20
const KEY = 'sk-engine-0123456789abcdef'
const TOKEN = 'server-token-9876543210fedcba'

/** An engine answering every request 200 with `bytes` of JSON, streamed 64 KiB at a time as the client reads. */
async function startFloodingEngine(t: Test, options: { bytes: number; declare?: number }) {
  const seen = { requests: 0, sent: 0, cut: 0 }
  let onCut = () => {}
  const cut = new Promise<void>((resolve) => (onCut = resolve))
  const server = createServer((req, res) => {
    seen.requests++
    req.resume()
    res.on('close', () => (res.writableFinished ? null : (seen.cut++, onCut())))
    const length = options.declare === undefined ? {} : { 'content-length': String(options.declare) }
    res.writeHead(200, { 'content-type': 'application/json', ...length })
    void flood(res, options.bytes)
  })
  async function flood(res: ServerResponse, bytes: number): Promise<void> {
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    res.write('{"model": "jev-1.13.0", "padding": "')
    for (let left = bytes; left > 0 && !res.destroyed; left -= chunk.length) {
      seen.sent += chunk.length
      if (!res.write(chunk)) await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)))
    }
    if (options.declare === undefined && !res.destroyed) res.end('"}')
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise<void>((resolve) => server.close(() => resolve()))
  })
  // Resolves once a response is cut short by the client, or after `ms` (the test then finds no cut).
  const dropped = (ms = 5000) => Promise.race([cut, delay(ms, undefined, { ref: false })])
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, dropped }
}

function project(t: Test, rows: readonly string[]): string {
  return t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': stringify([['message'], ...rows.map((m) => [m])]) })
}

t.test('a huge answer is read up to 4 MiB, then the request is stopped and fails once, not asked again', async (t) => {
  const engine = await startFloodingEngine(t, { bytes: 64 * MiB })
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' })
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'a huge answer' } })
  t.equal(res.status, 502)
  t.match(res.body.error, /^the engine's answer was over 4 MiB \(ENGINE_MAX_RESPONSE_BYTES\), so it was not read/)
  t.equal(engine.seen.requests, 1, 'an answer over the cap is not asked again')
  await engine.dropped()
  t.equal(engine.seen.cut, 1, 'the connection was dropped before the answer ended')
  t.ok(engine.seen.sent < 32 * MiB, `${(engine.seen.sent / MiB).toFixed(1)} MiB of the 64 MiB were sent`)
})

t.test('an answer that declares a length over the cap fails at once, without waiting for its body', async (t) => {
  const engine = await startFloodingEngine(t, { bytes: 64 * 1024, declare: 2 ** 30 })
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0', ENGINE_TIMEOUT_MS: '20000' }
  const server = await startJudgeServer(t, dir, env)
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'a declared answer' } })
  t.equal(res.status, 502)
  t.match(res.body.error, /^the engine's answer was over 4 MiB/)
  t.equal(engine.seen.requests, 1)
  await engine.dropped()
  t.equal(engine.seen.cut, 1, 'the connection was dropped')
})

t.test('ENGINE_MAX_RESPONSE_BYTES sets the cap; a run over it fails with the cap named', async (t) => {
  const engine = await startFloodingEngine(t, { bytes: 8 * MiB })
  const dir = project(t, ['one row'])
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0', ENGINE_MAX_RESPONSE_BYTES: '65536' }
  const result = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], env, dir)
  t.equal(result.code, 1)
  t.match(
    JSON.parse(result.stdout)[0].status,
    /^failed: the engine's answer was over 64 KiB \(ENGINE_MAX_RESPONSE_BYTES\)/,
  )
  t.equal(engine.seen.requests, 1, 'not retried')
  await engine.dropped()
  t.equal(engine.seen.cut, 1)
  const bad = await cli(['run', 'spam.judge.yaml'], { ...env, ENGINE_MAX_RESPONSE_BYTES: '10' }, dir)
  t.equal(bad.code, 2)
  t.match(bad.stderr, /ENGINE_MAX_RESPONSE_BYTES must be a whole number of bytes, at least 1024, not "10"/)
})

t.test('an engine naming a zero wait (retry-after-ms: 0) is asked again only after the backoff', async (t) => {
  const clock = createVirtualClock()
  const sentAt: number[] = []
  const busy: ScriptedReply = { status: 503, headers: { 'retry-after-ms': '0' }, body: { detail: 'busy' } }
  const engine = await startSystemOneServer({
    expectKey: KEY,
    reply: (_request, index) => (sentAt.push(clock.ms()), index < 6 ? busy : undefined),
  })
  t.teardown(() => engine.close())
  const dir = project(t, ['one row'])
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY, ENGINE_RPM: '0' }
  const result = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], env, dir, {
    now: clock.now,
    sleep: clock.sleep,
  })
  t.equal(result.code, 0, result.stderr)
  t.equal(engine.requests.length, 7, 'six refusals, then the answer')
  const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i])
  t.ok(
    gaps.every((gap) => gap >= 500),
    `every request waited at least the 0.5 s backoff after the last: ${gaps.join(', ')} ms`,
  )
  const firstFive = sentAt.filter((at) => at < sentAt[0] + 5000).length
  t.ok(firstFive <= 4, `${firstFive} requests in the first 5 s, as the backoff doubles`)
})

t.test("an engine's request id that holds a secret or breaks the rule of X-Request-Id reaches no log", async (t) => {
  const ids = [KEY, 'req 9; DROP TABLE', TOKEN, `req-${KEY.slice(5, 15)}`, 'req_5']
  const engine = await startSystemOneServer({
    expectKey: KEY,
    reply: (request, index) => {
      const headers = { 'x-typesafe-request-id': ids[index] }
      if (index === 1) return { status: 400, headers, body: { detail: 'bad request' } }
      const answer = { model: 'jev-1.13.0', answers: simulatedAnswers(request.body), usage: { input_tokens: 9 } }
      return { status: 200, headers, body: answer }
    },
  })
  t.teardown(() => engine.close())
  const lines: string[] = []
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const env = {
    ENGINE_URL: engine.url,
    ENGINE_API_KEY: KEY,
    ENGINE_RPM: '0',
    JUDGE_SERVER_TOKEN: TOKEN,
    JUDGE_ACCESS_LOG: 'json',
  }
  const server = await startJudgeServer(t, dir, env, { accessLog: (line) => lines.push(line) })
  const auth = { authorization: `Bearer ${TOKEN}` }
  const statuses: number[] = []
  const errors: string[] = []
  for (const [i] of ids.entries()) {
    const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: `row ${i}` } }, auth)
    statuses.push(res.status)
    if (res.status !== 200) errors.push(res.text)
  }
  await server.running.handler.idle(1000)
  t.same(statuses, [200, 502, 200, 200, 200])
  t.same(
    lines.map((line) => JSON.parse(line).engine_request_ids),
    [[], [], [], [], ['req_5']],
    'only the well-formed id that holds no secret is logged',
  )
  t.same(errors.length, 1)
  t.match(errors[0], /engine answered 400: bad request/)
  for (const text of [lines.join('\n'), errors.join('\n'), server.logs.join('\n')]) {
    t.notOk(text.includes(KEY.slice(5, 15)), 'no piece of the key')
    t.notOk(text.includes(TOKEN), 'nor the token')
    t.notOk(text.includes('DROP TABLE'), 'nor a malformed id')
  }
})
