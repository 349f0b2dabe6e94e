import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { SYSTEM_ONE_DEFAULT_MODEL } from '../src/adapters/system-one/system-one.ts'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { childEnv } from './helpers/cli.ts'
import { simulatedAnswers } from './helpers/simulated-model.ts'
import { smsMessages } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

const ROOT = resolve(import.meta.dirname, '..')

interface Child {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exit: Promise<number | null>
}

/** Starts `node <script> ...args` with the given environment, collecting what it prints. */
function start(script: string, args: readonly string[], env: Record<string, string>, cwd = ROOT): Child {
  const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, script), ...args], {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  return { child, output: () => output, exit }
}

/** Starts `node src/main.ts` on a free port and resolves with its URL once it logs that it listens. */
async function startServer(t: Test, env: Record<string, string>): Promise<Child & { url: string }> {
  const server = start('src/main.ts', [], { HOST: '127.0.0.1', PORT: '0', ...env })
  t.teardown(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGTERM')
    await server.exit
  })
  for (let waited = 0; waited < 20_000; waited += 20) {
    const url = /listening on (http:\/\/\S+),/.exec(server.output())?.[1]
    if (url) return { ...server, url }
    if (server.child.exitCode !== null) break
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`the server did not start: ${server.output()}`)
}

/** Posts every row to /v1/judge, `inFlight` at a time; returns the status and body of each, in row order. */
async function judgeAll(
  url: string,
  rows: readonly { message: string; log: boolean }[],
  inFlight: number,
): Promise<{ status: number; body: any }[]> {
  const results: { status: number; body: any }[] = []
  let next = 0
  const worker = async () => {
    while (next < rows.length) {
      const i = next++
      const { message, log } = rows[i]
      const response = await fetch(`${url}/v1/judge`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'spam.judge.yaml', row: { message }, log }),
      })
      results[i] = { status: response.status, body: await response.json() }
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return results
}

t.test(
  'two server processes and a judge run on one store at once: every answer lands, none is lost, none fails',
  async (t) => {
    const messages = [...new Set(smsMessages().map((r) => r.message))].slice(0, 300)
    const data = messages.slice(50, 250)
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML,
      'rows.csv': stringify([['message'], ...data.map((m) => [m]), ...data.slice(0, 20).map((m) => [m])]),
    })
    const store = join(dir, '.judge', 'store.sqlite')
    // A little latency, so that the three processes' requests and writes overlap.
    const engine = await startSystemOneServer({ expectKey: 'k', latencyMs: 5 })
    t.teardown(() => engine.close())
    const env = {
      JUDGE_PROJECTS: dir,
      JUDGE_STORE: store,
      ENGINE_URL: engine.url,
      ENGINE_API_KEY: 'k',
      ENGINE_RPM: '12000',
    }
    const [a, b] = await Promise.all([startServer(t, env), startServer(t, env)])

    // The two servers share 100 rows and the run shares rows with both; every other row is kept.
    const rowsOf = (from: number, to: number) =>
      messages.slice(from, to).map((message, i) => ({ message, log: (from + i) % 2 === 0 }))
    const run = start(
      'src/cli.ts',
      ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--concurrency', '4', '--json'],
      env,
      dir,
    )
    const [fromA, fromB] = await Promise.all([judgeAll(a.url, rowsOf(0, 200), 6), judgeAll(b.url, rowsOf(100, 300), 6)])
    const code = await run.exit
    t.equal(code, 0, 'the run exits 0')
    if (code !== 0) t.comment(run.output())

    const responses = [...fromA, ...fromB]
    t.same(
      responses.filter((r) => r.status !== 200),
      [],
      'every request answered 200',
    )
    t.ok(
      responses.every((r) => ['is_spam', 'topic', 'urgency'].every((q) => typeof r.body[q]?.label === 'string')),
      'every answer holds all three questions',
    )
    const [record] = JSON.parse(run.output().slice(run.output().indexOf('[')))
    t.match(record, { judgment: 'spam', rows: 220, status: 'complete' })

    a.child.kill('SIGTERM')
    b.child.kill('SIGTERM')
    t.same([await a.exit, await b.exit], [0, 0])
    for (const server of [a, b])
      t.notMatch(server.output(), /internal error|busy|locked/i, 'no server logged a failure')

    const spec = loadProject(join(dir, 'spam.judge.yaml')).selected[0]
    const opened = openSqliteStore(store)
    t.teardown(() => opened.close())
    const model = SYSTEM_ONE_DEFAULT_MODEL
    for (const q of spec.questions)
      t.equal(opened.countAnswers(model, q.fingerprint), 300, `${q.name}: one answer per distinct row`)
    const hashes = messages.map((message) => stateHash({ message }))
    t.equal(opened.getStates(hashes).size, 300, "every row's values are kept")
    t.equal(opened.keptRows('spam').length, 150, 'every row sent with log: true is kept once')
    t.same(
      opened.listRuns(['spam'], 10).map((r) => r.rows),
      [220],
      'the run is recorded',
    )

    const stored = (message: string, question: string) => {
      const q = spec.questions.find((x) => x.name === question)!
      return opened.getAnswers(model, stateHash({ message }), [q.fingerprint]).get(q.fingerprint)!.label
    }
    const sent = [...rowsOf(0, 200), ...rowsOf(100, 300)]
    const differing = sent.filter((row, i) =>
      spec.questions.some((q) => responses[i].body[q.name].label !== stored(row.message, q.name)),
    )
    t.same(differing, [], 'every response agrees with the store')
  },
)

t.test(
  'two processes asking the same new row at once end with one answer per key, served alike by both and by a fresh process',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    // Each engine request gets a different answer, and neither is answered before both have arrived:
    // both processes have asked, and the later writer holds an answer the store must not take.
    const given: string[] = []
    const engine = await startSystemOneServer({
      expectKey: 'k',
      gather: 2,
      answer: (body) => {
        const answers = simulatedAnswers({ ...body, state: { ...body.state, salt: String(given.length) } })
        given.push(JSON.stringify(answers))
        return answers
      },
    })
    t.teardown(() => engine.close())
    // No JUDGE_STORE: every process finds the store beside the spec, as a deployment would.
    const env = { JUDGE_PROJECTS: dir, ENGINE_URL: engine.url, ENGINE_API_KEY: 'k' }
    const [a, b] = await Promise.all([startServer(t, env), startServer(t, env)])
    const row = { message: 'Two servers, one new row' }
    const [fromA, fromB] = await Promise.all([
      judgeAll(a.url, [{ message: row.message, log: false }], 1),
      judgeAll(b.url, [{ message: row.message, log: false }], 1),
    ])
    t.equal(engine.requests.length, 2, 'both processes asked the engine')
    t.not(given[0], given[1], 'the engine answered the two differently')
    const withoutCached = (body: Record<string, { cached: boolean }>) =>
      Object.fromEntries(Object.entries(body).map(([q, { cached: _, ...rest }]) => [q, rest]))
    t.same([fromA[0].status, fromB[0].status], [200, 200])
    t.same(withoutCached(fromA[0].body), withoutCached(fromB[0].body), 'both processes served the same answers')

    const fresh = await startServer(t, { JUDGE_PROJECTS: dir })
    const [again] = await judgeAll(fresh.url, [{ message: row.message, log: false }], 1)
    t.ok(
      Object.values(again.body as Record<string, { cached: boolean }>).every((answer) => answer.cached),
      'a fresh process answers from the store',
    )
    t.same(withoutCached(again.body), withoutCached(fromA[0].body), 'and serves the same answers')

    const spec = loadProject(join(dir, 'spam.judge.yaml')).selected[0]
    const opened = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
    t.teardown(() => opened.close())
    for (const q of spec.questions) {
      t.equal(opened.countAnswers(SYSTEM_ONE_DEFAULT_MODEL, q.fingerprint), 1, `${q.name}: one answer for the key`)
      const stored = opened.getAnswers(SYSTEM_ONE_DEFAULT_MODEL, stateHash(row), [q.fingerprint]).get(q.fingerprint)!
      t.match(
        fromA[0].body[q.name],
        { label: stored.label, p: stored.p, margin: stored.margin },
        `${q.name}: the answer served is the one stored`,
      )
    }
  },
)

t.test('two workers of one server and a judge run on one store: every answer lands once, none is lost', async (t) => {
  const messages = [...new Set(smsMessages().map((r) => r.message))].slice(300, 500)
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    'rows.csv': stringify([['message'], ...messages.slice(100).map((m) => [m])]),
  })
  const engine = await startSystemOneServer({ expectKey: 'k', latencyMs: 5 })
  t.teardown(() => engine.close())
  // The store beside the spec, found by every process.
  const env = {
    JUDGE_PROJECTS: dir,
    ENGINE_URL: engine.url,
    ENGINE_API_KEY: 'k',
    ENGINE_RPM: '12000',
    HOST: '127.0.0.1',
    PORT: '0',
  }
  const server = start('src/cli.ts', ['serve', '--workers', '2'], env, dir)
  t.teardown(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGTERM')
    await server.exit
  })
  let url: string | undefined
  while (!(url = /workers share (http:\/\/\S+) /.exec(server.output())?.[1])) {
    if (server.child.exitCode !== null) throw new Error(`the server did not start: ${server.output()}`)
    await new Promise((done) => setTimeout(done, 20))
  }
  const workers = readFileSync(`/proc/${server.child.pid}/task/${server.child.pid}/children`, 'utf8')
    .trim()
    .split(/\s+/)
  t.equal(workers.length, 2, 'two worker processes serve')

  // The server judges rows 0-149, the run rows 100-199: 50 rows are asked by both at once.
  const run = start(
    'src/cli.ts',
    ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--concurrency', '4', '--json'],
    env,
    dir,
  )
  const responses = await judgeAll(
    url,
    messages.slice(0, 150).map((message) => ({ message, log: false })),
    8,
  )
  t.equal(await run.exit, 0, 'the run exits 0')
  t.same(
    responses.filter((r) => r.status !== 200),
    [],
    'every request answered 200',
  )
  server.child.kill('SIGTERM')
  t.equal(await server.exit, 0, 'the server and its workers stop cleanly')
  t.equal(server.output().match(/^stopped$/gm)?.length, 2, 'each worker stopped')
  t.notMatch(server.output(), /internal error|busy|locked/i)

  const spec = loadProject(join(dir, 'spam.judge.yaml')).selected[0]
  const opened = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  t.teardown(() => opened.close())
  for (const q of spec.questions)
    t.equal(opened.countAnswers(SYSTEM_ONE_DEFAULT_MODEL, q.fingerprint), 200, `${q.name}: one answer per distinct row`)
  t.equal(opened.getStates(messages.map((message) => stateHash({ message }))).size, 200, "every row's values are kept")
  const differing = messages.slice(0, 150).filter((message, i) =>
    spec.questions.some((q) => {
      const stored = opened
        .getAnswers(SYSTEM_ONE_DEFAULT_MODEL, stateHash({ message }), [q.fingerprint])
        .get(q.fingerprint)!
      return responses[i].body[q.name].label !== stored.label || responses[i].body[q.name].p !== stored.p
    }),
  )
  t.same(differing, [], 'every response agrees with the store')
  t.same(
    opened.listRuns(['spam'], 10).map((r) => r.rows),
    [100],
    'the run is recorded',
  )
})
