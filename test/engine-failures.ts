import t, { type Test } from 'tap'
import { setTimeout as delay } from 'node:timers/promises'
import { stringify } from 'csv-stringify/sync'
import { createVirtualClock } from './helpers/virtual-clock.ts'
import { cli, startCli } from './helpers/cli.ts'
import { smsMessages } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

// `judge run` when the engine fails: a stretch of 500s ridden out, an engine that keeps failing
// given up on with a way to resume, and a hung engine left at once on SIGTERM.

const ROWS = [...new Set(smsMessages().map((r) => r.message))].slice(0, 300)
const LIMIT = { requests: 100, windowMs: 2000, retryAfter: '6' }
const AT_LIMIT = String((LIMIT.requests * 60_000) / LIMIT.windowMs)

function project(t: Test, rows: readonly string[]): string {
  return t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': stringify([['message'], ...rows.map((m) => [m])]) })
}

t.test('30 consecutive 500s in the middle of the run are ridden out', async (t) => {
  const failing = (_request: unknown, index: number) =>
    index >= 100 && index < 130
      ? { status: 500, body: { detail: { error_type: 'server_error', message: 'overloaded' } } }
      : undefined
  const dir = project(t, ROWS)
  const clock = createVirtualClock()
  const engine = await startSystemOneServer({ expectKey: 'k', limit: LIMIT, reply: failing, now: clock.ms })
  t.teardown(() => engine.close())
  const result = await cli(
    ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
    { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: AT_LIMIT },
    dir,
    { now: clock.now, sleep: clock.sleep },
  )
  t.equal(result.code, 0, `the run exits 0${result.code === 0 ? '' : `: ${result.stderr}`}`)
  t.match(JSON.parse(result.stdout)[0], { rows: 300, requests: 300, status: 'complete' })
  const answered = engine.answered.map((r) => r.body.state.message)
  t.equal(answered.length, 300, 'the engine answered 300 requests')
  t.equal(new Set(answered).size, 300, 'one for each row: none answered twice')
  t.ok(engine.requests.length >= 330, 'the 30 failures happened, and their rows were asked again')
})

t.test(
  'an engine that keeps failing ends the run past ENGINE_GIVE_UP_S, saying how many rows are left and that running again resumes',
  async (t) => {
    const dir = project(t, ROWS.slice(0, 40))
    const engine = await startSystemOneServer({
      expectKey: 'k',
      reply: (_r, i) => (i >= 10 ? { status: 503, body: { detail: 'down' } } : undefined),
    })
    t.teardown(() => engine.close())
    const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0', ENGINE_GIVE_UP_S: '2' }
    const clock = createVirtualClock()
    const failed = await cli(
      ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json', '--concurrency', '2'],
      env,
      dir,
      { now: clock.now, sleep: clock.sleep },
    )
    t.ok(
      clock.slept >= 2000,
      `the run waited past ENGINE_GIVE_UP_S before it gave up (${clock.slept} ms slept, on the clock)`,
    )
    t.equal(failed.code, 1)
    const [record] = JSON.parse(failed.stdout)
    t.match(
      record.status,
      /^failed: the engine kept failing for over 2 s without a success \(last: engine answered 503: down/,
    )
    t.equal(record.rows, 10, 'the rows answered before are counted')
    t.match(
      failed.stderr,
      /spam: failed: .*; 30 of 40 rows left\. Run the same command again to resume: the answers received are kept, and only the rest is asked\./,
    )
    const healthy = await startSystemOneServer({ expectKey: 'k' })
    t.teardown(() => healthy.close())
    const resumed = await cli(
      ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
      { ...env, ENGINE_URL: healthy.url },
      dir,
    )
    t.equal(resumed.code, 0)
    t.equal(healthy.answered.length, 30, 'only the rest is asked')
  },
)

t.test(
  'SIGTERM ends a run on a hung engine at once, recorded as interrupted with its answers kept; the next run asks only the rest',
  async (t) => {
    const dir = project(t, ROWS.slice(0, 60))
    const hung = await startSystemOneServer({ expectKey: 'k', hangFrom: 20 })
    t.teardown(() => hung.close())
    const env = {
      ENGINE_URL: hung.url,
      ENGINE_API_KEY: 'k',
      ENGINE_RPM: '0',
      ENGINE_TIMEOUT_MS: '120000',
    }
    const child = startCli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json', '--concurrency', '4'], env, dir)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (d) => (stdout += d))
    child.stderr!.on('data', (d) => (stderr += d))
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)))
    while (hung.requests.length < 24) await delay(10)
    await delay(100)
    const killedAt = Date.now()
    child.kill('SIGTERM')
    const code = await exited
    const seconds = (Date.now() - killedAt) / 1000
    t.comment(`exited ${seconds.toFixed(2)} s after SIGTERM, with 4 requests hung for up to 120 s`)
    t.ok(seconds < 10, 'it did not wait for the hung requests')
    t.equal(code, 1, 'an interrupted run exits 1')
    t.match(stderr, /stopping; the answers received are kept/)
    const [record] = JSON.parse(stdout)
    t.match(record, { status: 'failed: interrupted', rows: 20, requests: 20 })
    t.match(stderr, /spam: failed: interrupted; 40 of 60 rows left\. Run the same command again to resume/)
    const runs = await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)
    t.equal(JSON.parse(runs.stdout)[0].status, 'failed: interrupted', 'the run is recorded')
    const healthy = await startSystemOneServer({ expectKey: 'k' })
    t.teardown(() => healthy.close())
    const rerun = await cli(
      ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
      { ...env, ENGINE_URL: healthy.url },
      dir,
    )
    t.equal(rerun.code, 0)
    t.equal(healthy.requests.length, 40, 'the 20 answers received were kept; only the other 40 rows are asked')
  },
)
