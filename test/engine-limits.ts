import t, { type Test } from 'tap'
import { stringify } from 'csv-stringify/sync'
import { cli } from './helpers/cli.ts'
import { createVirtualClock, type VirtualClock } from './helpers/virtual-clock.ts'
import { smsMessages } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer, type SystemOneServerOptions } from './helpers/system-one-server.ts'

// `judge run` against a local System One server that enforces a rate limit as the API does, its
// window scaled down from a minute to 2 s (100 requests per 2 s is the API's 1,200 a minute at
// 3,000 a minute): 300 new rows must finish in one invocation, each row answered exactly once.
// The run's pace and waits and the server's window keep one virtual clock, so that the seconds of
// pacing and of Retry-After a run waits out take no time here.

const ROWS = [...new Set(smsMessages().map((r) => r.message))].slice(0, 300)
const LIMIT = { requests: 100, windowMs: 2000 }
const AT_LIMIT = String((LIMIT.requests * 60_000) / LIMIT.windowMs)

async function run(
  t: Test,
  server: SystemOneServerOptions | ((clock: VirtualClock) => SystemOneServerOptions),
  env: Record<string, string>,
) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': stringify([['message'], ...ROWS.map((m) => [m])]) })
  const clock = createVirtualClock()
  const options = typeof server === 'function' ? server(clock) : server
  const engine = await startSystemOneServer({ expectKey: 'k', now: clock.ms, ...options })
  t.teardown(() => engine.close())
  const result = await cli(
    ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
    { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ...env },
    dir,
    { now: clock.now, sleep: clock.sleep },
  )
  t.equal(result.code, 0, `the run exits 0${result.code === 0 ? '' : `: ${result.stderr}`}`)
  const [record] = JSON.parse(result.stdout)
  t.match(record, { rows: 300, asked: 900, requests: 300, status: 'complete' })
  const answered = engine.answered.map((r) => r.body.state.message)
  t.equal(answered.length, 300, 'the engine answered 300 requests')
  t.equal(new Set(answered).size, 300, 'one for each row: none answered twice')
  t.ok(
    clock.ms() - Date.parse('2026-01-01T00:00:00.000Z') >= 4000,
    'at least 300 requests at 100 per 2 s: two windows waited out, on the clock',
  )
  return { engine, clock, stderr: result.stderr }
}

t.test("with ENGINE_RPM at the engine's limit, a run of 300 new rows finishes with hardly a 429", async (t) => {
  const { engine } = await run(t, { limit: { ...LIMIT, retryAfter: '6' } }, { ENGINE_RPM: AT_LIMIT })
  t.ok(engine.refused() <= 3, `${engine.refused()} requests refused`)
})

t.test('with ENGINE_RPM above the limit, the 429s and their 6 s Retry-After are waited out', async (t) => {
  const { engine, clock } = await run(
    t,
    { limit: { ...LIMIT, retryAfter: '6' } },
    { ENGINE_RPM: String(Number(AT_LIMIT) * 2) },
  )
  t.ok(engine.refused() >= 1, `the engine refused ${engine.refused()} requests, each asked again`)
  t.ok(clock.slept >= 6000, `a 6 s Retry-After was waited out (${clock.slept} ms slept in all)`)
})

t.test('without Retry-After, the run backs off on its own and finishes', async (t) => {
  const { engine } = await run(t, { limit: LIMIT }, { ENGINE_RPM: String(Number(AT_LIMIT) * 2) })
  t.ok(engine.refused() >= 1, `the engine refused ${engine.refused()} requests, each asked again`)
})

t.test(
  'when the limit halves mid-run, the pace finds it: under 5% refused, each row once, and the run says what it found',
  async (t) => {
    const { engine, stderr } = await run(
      t,
      { limit: { ...LIMIT, retryAfterMs: true, halvesAfter: 150 } },
      { ENGINE_RPM: AT_LIMIT },
    )
    t.ok(engine.refused() >= 1 && engine.refused() < 15, `${engine.refused()} of 300 requests refused`)
    t.match(
      stderr,
      /requests? refused for the rate \(429\), 0 overloaded \(529\); the engine's limit was found below ENGINE_RPM: it refused [\d,]+ requests a minute, and the pace kept to [\d,]+ a minute at the end/,
    )
  },
)

t.test('a burst of 529s is ridden out with its own backoff, counted apart, each row answered once', async (t) => {
  const overloaded = { status: 529, body: { detail: { error_type: 'overloaded_error', message: 'Overloaded' } } }
  // The engine is overloaded for 20 s from its 20th request, as an overload lasts a while, not a number of requests:
  // the run's backoff (1 s, 2 s, 4 s… jittered) probes it a few times and goes on once it answers again.
  let from: number | null = null
  const burst = (clock: VirtualClock): SystemOneServerOptions => ({
    reply: (_r, i) => {
      if (i === 20) from = clock.ms()
      return from !== null && clock.ms() - from < 20_000 ? overloaded : undefined
    },
  })
  const { engine, stderr } = await run(t, burst, { ENGINE_RPM: AT_LIMIT, ENGINE_GIVE_UP_S: '10' })
  const refused = engine.requests.length - 300
  t.ok(refused >= 4, `${refused} requests overloaded, each asked again`)
  t.match(
    stderr,
    new RegExp(`judge run: 0 requests refused for the rate \\(429\\), ${refused} overloaded \\(529\\)\\n`),
  )
})
