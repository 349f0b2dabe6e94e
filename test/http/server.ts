import t from 'tap'
import { connect } from 'node:net'
import { readConfig } from '../../src/config.ts'
import type { Engine } from '../../src/ports/engine.ts'
import { DEFAULT_PROJECTS, listenError, serveUntil, startServer, startupLine } from '../../src/http/server.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const CANDIDATE_YAML = SPAM_YAML.replace('name: spam', 'name: spam_v2').replace(
  'ask: Is this message',
  'ask: CANDIDATE. Is this message',
)

/** An engine that holds every candidate request until released. */
function holdingEngine(): { engine: Engine; release: () => void } {
  const base = createFakeEngine()
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  return {
    release,
    engine: {
      defaultModel: base.defaultModel,
      async ask(request, signal) {
        if (request.questions.some((q) => q.ask.startsWith('CANDIDATE'))) await released
        return base.ask(request, signal)
      },
    },
  }
}

t.test('the startup line says where it listens and what it serves, never a secret', async (t) => {
  const open = readConfig({ JUDGE_PROJECTS: '/srv/specs' }, '/')
  t.equal(
    startupLine(open, 'http://127.0.0.1:8080'),
    'judge server listening on http://127.0.0.1:8080, serving /srv/specs; no token (open to anyone who can reach it); no engine key (cached rows only)',
  )
  const closed = readConfig({ JUDGE_PROJECTS: '/srv/specs', JUDGE_SERVER_TOKEN: 'tok-1', ENGINE_API_KEY: 'key-1' }, '/')
  const line = startupLine(closed, 'http://127.0.0.1:8080')
  t.match(line, /token required; engine key set$/)
  t.notMatch(line, /tok-1|key-1/)
  t.match(DEFAULT_PROJECTS, /examples$/)
  const simulated = startupLine(
    readConfig({ JUDGE_PROJECTS: '/srv/specs', ENGINE: 'simulated' }, '/'),
    'http://127.0.0.1:8080',
  )
  t.match(simulated, /; simulated engine \(its answers are not a real model's\)$/)
})

t.test('the server listens on the configured host and a free port, and stops', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const running = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir))
  t.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.equal((await fetch(`${running.url}/v1/runs?path=spam.judge.yaml`)).status, 200)
  t.equal(await running.stop(), true)
  t.equal(await running.stop(), true, 'stopping twice is harmless')
  await t.rejects(fetch(`${running.url}/`), 'no longer accepting')
})

t.test('a port in use is an error at startup', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const first = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir))
  t.teardown(() => first.stop())
  const port = new URL(first.url).port
  await t.rejects(startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: port }, dir)), {
    name: 'ListenError',
    exitCode: 2,
    message: `cannot listen: 127.0.0.1:${port} is already in use (another server?); stop it, or set PORT to another port (PORT=0 picks a free one)`,
    cause: { code: 'EADDRINUSE' },
  })
})

t.test('listen failures read as what to change; others stay as they are', async (t) => {
  const config = { host: '10.9.8.7', port: 80 }
  const failure = (code: string) => Object.assign(new Error(code), { code })
  t.match(listenError(failure('EACCES'), config), {
    name: 'ListenError',
    message: /10\.9\.8\.7:80 is not allowed .*set PORT to 1024 or above/,
  })
  t.match(listenError(failure('EADDRNOTAVAIL'), config), {
    name: 'ListenError',
    message: /10\.9\.8\.7 is not an address of this machine; set HOST/,
  })
  const other = failure('EMFILE')
  t.equal(listenError(other, config), other)
})

t.test('a shutdown waits for a shadow judgment in flight, and gives up at its bound', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'spam-v2.judge.yaml': CANDIDATE_YAML })
  const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hi' }, shadow: 'spam-v2.judge.yaml' })
  const waited = holdingEngine()
  const patient = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    engine: waited.engine,
    log: () => {},
  })
  t.equal((await fetch(`${patient.url}/v1/judge`, { method: 'POST', body })).status, 200)
  let stopped = false
  const stopping = patient.stop(5000).then((finished) => ((stopped = true), finished))
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.equal(stopped, false, 'still waiting for the shadow')
  waited.release()
  t.equal(await stopping, true, 'stopped once the shadow finished')

  const stuck = holdingEngine()
  const logs: string[] = []
  const impatient = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    engine: stuck.engine,
    log: (l) => logs.push(l),
  })
  const fresh = body.replace('"hi"', '"a row no shadow has seen"')
  t.equal((await fetch(`${impatient.url}/v1/judge`, { method: 'POST', body: fresh })).status, 200)
  t.equal(await impatient.stop(50), false, 'gave up at the bound')
  stuck.release()
})

t.test('serveUntil logs the startup line, serves until its signal, then shuts down', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const logs: string[] = []
  const controller = new AbortController()
  const done = serveUntil(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    log: (l) => logs.push(l),
    signal: controller.signal,
  })
  while (logs.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
  const url = /listening on (\S+),/.exec(logs[0])![1]
  t.equal((await fetch(`${url}/`)).status, 200)
  controller.abort()
  await done
  t.same(logs.slice(1), ['shutting down: finishing the requests and shadow judgments in flight', 'stopped'])
  const aborted = AbortSignal.abort()
  const quick: string[] = []
  await serveUntil(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), { log: (l) => quick.push(l), signal: aborted })
  t.equal(quick.length, 3, 'an already aborted signal starts and stops at once')
  const missing: string[] = []
  await serveUntil(readConfig({ JUDGE_PROJECTS: 'gone', PORT: '0' }, dir), {
    log: (l) => missing.push(l),
    signal: aborted,
  })
  t.equal(missing[1], `warning: ${dir}/gone does not exist; every path is 404 until it does`)
})

t.test('a client that sends its body too slowly is cut off with 408 and the connection closed', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig(
    { JUDGE_PROJECTS: dir, PORT: '0', JUDGE_HEADERS_TIMEOUT_MS: '300', JUDGE_REQUEST_TIMEOUT_MS: '600' },
    dir,
  )
  const running = await startServer(config, { engine: createFakeEngine(), log: () => {} })
  t.teardown(() => running.stop(1000))
  const { port } = new URL(running.url)
  const socket = connect(Number(port), '127.0.0.1')
  socket.write(
    'POST /review HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\npath=',
  )
  let text = ''
  socket.on('data', (d) => (text += d))
  await new Promise((resolve) => socket.once('close', resolve))
  t.match(text, /^HTTP\/1\.1 408 /, 'the server gave up on the request, not the client')
})

t.test('connections beyond JUDGE_MAX_CONNECTIONS are closed as they arrive', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig(
    { JUDGE_PROJECTS: dir, PORT: '0', JUDGE_MAX_CONNECTIONS: '2', JUDGE_MAX_CONNECTIONS_PER_CLIENT: '2' },
    dir,
  )
  const running = await startServer(config, { engine: createFakeEngine(), log: () => {} })
  t.teardown(() => running.stop(1000))
  const { port } = new URL(running.url)
  const open = async () => {
    const socket = connect(Number(port), '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    return socket
  }
  const kept = [await open(), await open()]
  t.teardown(() => kept.forEach((s) => s.destroy()))
  await new Promise((resolve) => setTimeout(resolve, 50))
  const third = await open()
  const closed = await new Promise<boolean>((resolve) => {
    third.once('close', () => resolve(true))
    third.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n')
  })
  t.ok(closed)
  kept[0].write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
  const answer = await new Promise<string>((resolve) => {
    let text = ''
    kept[0].on('data', (d) => (text += d))
    kept[0].once('close', () => resolve(text))
  })
  t.match(answer, /^HTTP\/1\.1 200 /, 'the connections within the limit are served')
})

t.test('one client holding more than the global cap gets its share, and another client is still served', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  // The shape of 1,100 sockets against 1,024, made small: 10 against 8, a quarter (2) per client.
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: '0', JUDGE_MAX_CONNECTIONS: '8' }, dir)
  const logs: string[] = []
  const running = await startServer(config, { engine: createFakeEngine(), log: (line) => logs.push(line) })
  t.teardown(() => running.stop(1000))
  const { port } = new URL(running.url)
  const attacker = Array.from({ length: 10 }, () =>
    connect({ port: Number(port), host: '127.0.0.1', localAddress: '127.0.0.2' }),
  )
  t.teardown(() => attacker.forEach((s) => s.destroy()))
  const closed = attacker.map(
    (socket) =>
      new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true))
        socket.once('error', () => {})
      }),
  )
  let shut = 0
  for (const c of closed) void c.then(() => shut++)
  while (shut < 8) await new Promise((resolve) => setTimeout(resolve, 10))
  t.equal(running.clients.refused(), 8, 'every connection over the per-client cap is closed and counted')
  t.equal(logs.filter((l) => l.includes('127.0.0.2')).length, 1, 'the first refusal is logged, not each')
  t.match(
    logs[0],
    /^connections from 127\.0\.0\.2 over JUDGE_MAX_CONNECTIONS_PER_CLIENT \(2\) are closed as they arrive$/,
  )
  const res = await fetch(`${running.url}/`)
  t.equal(res.status, 200, 'a client from another address is served')
  await res.text()
  const kept = attacker.filter((s) => !s.destroyed)
  t.equal(kept.length, 2)
  kept[0].write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
  const answer = await new Promise<string>((resolve) => {
    let text = ''
    kept[0].on('data', (d) => (text += d))
    kept[0].once('close', () => resolve(text))
  })
  t.match(answer, /^HTTP\/1\.1 200 /, "the client's own share is served")
  kept[1].destroy()
  while (logs.length < 2) await new Promise((resolve) => setTimeout(resolve, 10))
  t.equal(
    logs[1],
    'closed 8 connections from 127.0.0.2 over JUDGE_MAX_CONNECTIONS_PER_CLIENT (2)',
    'the count is logged once the client holds nothing',
  )
})

t.test('a shutdown past its bound cancels the engine requests still waiting, which end at once', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const engine = createFakeEngine({ latencyMs: 600_000 })
  const seen: (AbortSignal | undefined)[] = []
  const watched: Engine = {
    defaultModel: engine.defaultModel,
    ask: (request, signal) => (seen.push(signal), engine.ask(request, signal)),
  }
  const running = await startServer(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    engine: watched,
    log: () => {},
  })
  const asking = fetch(`${running.url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hung' } }),
  })
  while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
  t.equal(await running.stop(50), false, 'the request was still in flight at the bound')
  t.equal(seen[0]?.aborted, true, 'the shutdown reached the engine request')
  const res = await asking.catch(() => null)
  if (res) t.match(await res.json(), { error: 'the engine request was cancelled' })
})
