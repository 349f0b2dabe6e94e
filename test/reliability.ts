import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { SYSTEM_ONE_DEFAULT_MODEL } from '../src/adapters/system-one/system-one.ts'
import { loadProject } from '../src/adapters/files/spec-files.ts'
import { stateHash } from '../src/core/judge/state.ts'
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
  const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, script), ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
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
async function judgeAll(url: string, rows: readonly { message: string; log: boolean }[], inFlight: number): Promise<{ status: number; body: any }[]> {
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

t.test('two server processes and a judge run on one store at once: every answer lands, none is lost, none fails', async (t) => {
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
  const env = { JUDGE_PROJECTS: dir, JUDGE_STORE: store, ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '12000' }
  const [a, b] = await Promise.all([startServer(t, env), startServer(t, env)])

  // The two servers share 100 rows and the run shares rows with both; every other row is kept.
  const rowsOf = (from: number, to: number) => messages.slice(from, to).map((message, i) => ({ message, log: (from + i) % 2 === 0 }))
  const run = start('src/cli.ts', ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--concurrency', '4', '--json'], env, dir)
  const [fromA, fromB] = await Promise.all([judgeAll(a.url, rowsOf(0, 200), 6), judgeAll(b.url, rowsOf(100, 300), 6)])
  const code = await run.exit
  t.equal(code, 0, 'the run exits 0')
  if (code !== 0) t.comment(run.output())

  const responses = [...fromA, ...fromB]
  t.same(responses.filter((r) => r.status !== 200), [], 'every request answered 200')
  t.ok(responses.every((r) => ['is_spam', 'topic', 'urgency'].every((q) => typeof r.body[q]?.label === 'string')), 'every answer holds all three questions')
  const [record] = JSON.parse(run.output().slice(run.output().indexOf('[')))
  t.match(record, { judgment: 'spam', rows: 220, status: 'complete' })

  a.child.kill('SIGTERM')
  b.child.kill('SIGTERM')
  t.same([await a.exit, await b.exit], [0, 0])
  for (const server of [a, b]) t.notMatch(server.output(), /internal error|busy|locked/i, 'no server logged a failure')

  const spec = loadProject(join(dir, 'spam.judge.yaml')).selected[0]
  const opened = openSqliteStore(store)
  t.teardown(() => opened.close())
  const model = SYSTEM_ONE_DEFAULT_MODEL
  for (const q of spec.questions) t.equal(opened.countAnswers(model, q.fingerprint), 300, `${q.name}: one answer per distinct row`)
  const hashes = messages.map((message) => stateHash({ message }))
  t.equal(opened.getStates(hashes).size, 300, 'every row\'s values are kept')
  t.equal(opened.keptRows('spam').length, 150, 'every row sent with log: true is kept once')
  t.same(opened.listRuns(['spam'], 10).map((r) => r.rows), [220], 'the run is recorded')

  const stored = (message: string, question: string) => {
    const q = spec.questions.find((x) => x.name === question)!
    return opened.getAnswers(model, stateHash({ message }), [q.fingerprint]).get(q.fingerprint)!.label
  }
  const sent = [...rowsOf(0, 200), ...rowsOf(100, 300)]
  const differing = sent.filter((row, i) => spec.questions.some((q) => responses[i].body[q.name].label !== stored(row.message, q.name)))
  t.same(differing, [], 'every response agrees with the store')
})
