import t from 'tap'
import cluster from 'node:cluster'
import { randomBytes } from 'node:crypto'
import { openSync, closeSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs'
import { readConfig } from '../src/config.ts'
import { serveAll } from '../src/http/workers.ts'
import { spawnCli } from './helpers/cli.ts'
import { damagePages } from './helpers/damage.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { verdictForms } from './helpers/review-forms.ts'
import { everyRoute, SIMULATED, storeProject, type RouteCall } from './helpers/store-project.ts'

// A store in trouble never takes the server down. Before, a store whose pages were damaged while a
// server with workers served it made the end of the batched read transaction throw from
// setImmediate: the worker died, and every replacement died on its next request.

const TOKEN = 'a-token-for-the-damaged-store'

/** Waits until `check` holds, looking every 20 ms; fails naming `what` after 30 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Sends one route's request with the token, as a browser or a client would. */
async function call(url: string, route: RouteCall): Promise<{ status: number; text: string }> {
  const type = route.form ? 'application/x-www-form-urlencoded' : 'application/json'
  const res = await fetch(url + route.path, {
    method: route.method,
    body: route.body,
    redirect: 'manual',
    headers: { authorization: `Bearer ${TOKEN}`, ...(route.body ? { 'content-type': type } : {}) },
  })
  return { status: res.status, text: await res.text() }
}

/** Routes that show a store's error inline: the home page and its twin. */
const INLINE = new Set(['/', '/v1/projects'])

t.test(
  'damaged pages under two workers: no worker exits, every answer that reads the store names the file, and a store put right serves again',
  async (t) => {
    const project = await storeProject(t.testdir())
    const config = readConfig(
      {
        ...SIMULATED,
        JUDGE_PROJECTS: project.root,
        PORT: '0',
        HOST: '127.0.0.1',
        JUDGE_WORKERS: '2',
        JUDGE_SERVER_TOKEN: TOKEN,
      },
      project.root,
    )
    const logs: string[] = []
    const controller = new AbortController()
    const served = serveAll(config, { log: (line) => logs.push(line), signal: controller.signal })
    t.teardown(() => controller.abort())
    await until(() => logs.some((line) => / workers share /.test(line)), 'two workers to listen')
    const url = /workers share (http:\/\/\S+) /.exec(logs.find((line) => / workers share /.test(line))!)![1]
    const workers = () =>
      Object.values(cluster.workers ?? {})
        .map((w) => w!.process.pid)
        .sort()
    const pids = workers()
    t.equal(pids.length, 2)
    const [run] = JSON.parse((await call(url, { method: 'GET', path: '/v1/runs?path=sms/spam.judge.yaml' })).text)
    const page = (await call(url, { method: 'GET', path: '/review?path=sms/spam.judge.yaml&reviewer=ann' })).text
    const verdict = { ...verdictForms(page)[0].fields, token: TOKEN, reviewed_at: '2026-01-01T00:00:00.000' }
    const routes = everyRoute(run.run_id, verdict)
    const damage = damagePages(project.store)
    t.ok(damage.pages > 100, `${damage.pages} pages damaged while the server serves`)
    // Twice over: each worker takes some of each round's requests.
    for (let round = 0; round < 2; round++) {
      for (const route of routes) {
        const { status, text } = await call(url, route)
        const what = `${route.method} ${route.path.split('?')[0]}`
        // An undo of a verdict never saved is refused, before the store or when it reads it.
        if (route.path === '/review/undo' && status !== 503)
          t.ok(status >= 400 && status < 500, `${what}: refused (${status})`)
        else if (INLINE.has(route.path))
          t.ok(status === 200 && text.includes(`${project.shown} is damaged`), `${what}: 200, the error inline`)
        else {
          t.equal(status, 503, what)
          t.ok(
            text.includes(`${project.shown} is damaged (database disk image is malformed)`) &&
              text.includes('.recover'),
            `${what} names the file and what to do`,
          )
        }
      }
    }
    t.same(workers(), pids, 'the same two workers serve')
    t.notMatch(logs.join('\n'), /exited|internal error/)
    t.match(
      logs.join('\n'),
      /store trouble on GET \/v1\/runs: sms\/.judge\/store.sqlite is damaged/,
      'the log says so in one line',
    )
    damage.restore()
    for (let i = 0; i < 4; i++) {
      t.equal((await call(url, routes[2])).status, 200, 'the restored store is read again, by either worker')
      t.equal((await call(url, { method: 'GET', path: '/review?path=sms/spam.judge.yaml&reviewer=ann' })).status, 200)
    }
    controller.abort()
    t.equal(await served, 0)
  },
)

/** Ways a store file is found harmed when a server starts on it, and what the server says of each. */
const HARMS: readonly [string, (file: string) => void, RegExp][] = [
  [
    'a truncated store',
    (file) => truncateSync(file, Math.floor(statSync(file).size / 3)),
    /is damaged \(database disk image is malformed\)/,
  ],
  [
    'a random header',
    (file) => {
      const fd = openSync(file, 'r+')
      writeSync(fd, randomBytes(100), 0, 100, 0)
      closeSync(fd)
    },
    /is not a judge store \(file is not a database\)/,
  ],
  [
    'a text file',
    (file) => writeFileSync(file, 'this is a note, not a store\n'.repeat(200)),
    /is not a judge store \(file is not a database\)/,
  ],
]

for (const [what, harm, message] of HARMS) {
  t.test(`${what} in the store's place: 503 naming the file, on the API and the pages, not 500`, async (t) => {
    const project = await storeProject(t.testdir())
    harm(project.store)
    const server = await startJudgeServer(t, project.root, SIMULATED)
    for (const path of [
      '/v1/runs?path=sms/spam.judge.yaml',
      '/runs?path=sms/spam.judge.yaml',
      '/v1/accuracy?path=sms/spam.judge.yaml',
      '/review?path=sms/spam.judge.yaml',
    ]) {
      const res = await server.get(path)
      t.equal(res.status, 503, path)
      t.match(res.text, `${project.shown} `, `${path} names the file`)
      t.match(res.text, message, `${path} says what is wrong`)
    }
    t.notMatch(server.logs.join('\n'), /internal error/)
  })
}

t.test('the CLI on a damaged store exits 2 with what to do, and no stack', async (t) => {
  const project = await storeProject(t.testdir())
  damagePages(project.store)
  for (const args of [
    ['runs', 'spam.judge.yaml'],
    ['run', 'spam.judge.yaml'],
    ['test', 'spam.judge.yaml'],
  ]) {
    const result = await spawnCli(args, SIMULATED, project.dir)
    t.equal(result.code, 2, `judge ${args[0]}`)
    t.match(
      result.stderr,
      `judge ${args[0]}: ${project.store} is damaged (database disk image is malformed): stop every judge process on it, then restore it from a backup, or recover what is left with sqlite3 ${project.store} ".recover"`,
    )
    t.notMatch(result.stderr, /unexpected error|\n\s+at /, 'no stack')
  }
})
