import t from 'tap'
import cluster from 'node:cluster'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readConfig } from '../../src/config.ts'
import { serveAll } from '../../src/http/workers.ts'
import { SPAM_YAML } from '../helpers/specs.ts'
import { startSystemOneServer } from '../helpers/system-one-server.ts'

/** Waits until `check` holds, looking every 20 ms; fails naming `what` after 30 s. */
async function until(check: () => boolean, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** How many workers have logged that they listen. */
function listeningLines(logs: readonly string[]): number {
  return logs.filter((line) => line.startsWith('judge server listening on')).length
}

/**
 * Waits until the primary's shared URL and `workers` workers' own lines are logged: the primary
 * hears `listening` over IPC and a worker's line comes through its stderr pipe, in either order.
 */
async function allListening(logs: readonly string[], workers: number): Promise<string> {
  await until(() => sharedUrl(logs) !== undefined && listeningLines(logs) >= workers, `${workers} workers to listen`)
  return sharedUrl(logs)!
}

/** The URL the primary logs once every worker listens. */
function sharedUrl(logs: readonly string[]): string | undefined {
  return logs.map((line) => /workers share (http:\/\/\S+) /.exec(line)?.[1]).find(Boolean)
}

t.test('workers share one port; a shutdown stops them all, each finishing the request it holds', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  // The engine holds the first request until a second arrives, so the shutdown begins while it is in flight.
  const engine = await startSystemOneServer({ expectKey: 'k', gather: 2 })
  t.teardown(() => engine.close())
  const config = readConfig(
    { JUDGE_PROJECTS: dir, PORT: '0', ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', JUDGE_WORKERS: '2' },
    dir,
  )
  const logs: string[] = []
  const controller = new AbortController()
  const served = serveAll(config, { log: (line) => logs.push(line), signal: controller.signal })
  const url = await allListening(logs, 2)
  t.equal(listeningLines(logs), 2, 'two workers listen')
  t.equal(Object.keys(cluster.workers ?? {}).length, 2, 'as two processes')
  const cached = await fetch(`${url}/v1/runs?path=spam.judge.yaml`)
  t.equal(cached.status, 200)
  const pending = fetch(`${url}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'in flight' } }),
  })
  await until(() => engine.requests.length === 1)
  controller.abort()
  await until(() => logs.some((line) => line.startsWith('shutting down')))
  const release = await fetch(`${engine.url}/v1/systemone`, {
    method: 'POST',
    headers: { authorization: 'Bearer k' },
    body: JSON.stringify(engine.requests[0].body),
  })
  t.equal(release.status, 200)
  const answered = await pending
  t.equal(answered.status, 200, 'the request in flight is answered')
  t.equal(((await answered.json()) as Record<string, { cached: boolean }>).is_spam.cached, false)
  t.equal(await served, 0, 'every worker stopped cleanly')
  t.equal(logs.filter((line) => line === 'stopped').length, 2)
  t.equal(Object.keys(cluster.workers ?? {}).length, 0)
})

t.test('a worker that dies while serving is replaced', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: '0', JUDGE_WORKERS: '2' }, dir)
  const logs: string[] = []
  const controller = new AbortController()
  const served = serveAll(config, { log: (line) => logs.push(line), signal: controller.signal })
  await allListening(logs, 2)
  const [victim] = Object.values(cluster.workers ?? {})
  victim!.process.kill('SIGKILL')
  await until(() => listeningLines(logs) === 3, 'the replacement to listen')
  t.match(logs.join('\n'), new RegExp(`worker ${victim!.process.pid} exited \\(SIGKILL\\); starting another`))
  t.equal((await fetch(`${sharedUrl(logs)}/v1/runs?path=spam.judge.yaml`)).status, 200, 'the port is still served')
  controller.abort()
  t.equal(await served, 0)
})

t.test('workers that cannot listen stop them all, with the status of the failure', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  t.teardown(() => taken.close())
  const port = String((taken.address() as AddressInfo).port)
  const logs: string[] = []
  const status = await serveAll(readConfig({ JUDGE_PROJECTS: dir, PORT: port, JUDGE_WORKERS: '2' }, dir), {
    log: (line) => logs.push(line),
    signal: new AbortController().signal,
  })
  t.equal(status, 2, 'the exit status of a listen error')
  t.match(logs.join('\n'), /already in use/)
  t.match(logs.join('\n'), /before it listened; stopping/)
  t.equal(Object.keys(cluster.workers ?? {}).length, 0)
})

t.test('one worker serves in the process itself', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const logs: string[] = []
  const controller = new AbortController()
  const served = serveAll(readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir), {
    log: (line) => logs.push(line),
    signal: controller.signal,
  })
  await until(() => logs.length > 0)
  t.match(logs[0], /^judge server listening on /)
  t.equal(Object.keys(cluster.workers ?? {}).length, 0)
  controller.abort()
  t.equal(await served, 0)
})
