import t from 'tap'
import { createGovernor, type GovernorOptions } from '../../../src/core/pacing/governor.ts'
import { requestPatience, runPatience } from '../../../src/core/pacing/patience.ts'
import { EngineError, RetryLaterError } from '../../../src/errors.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import type { Store } from '../../../src/ports/store.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'

const REQUEST: EngineRequest = { model: 'm', state: { message: 'hi' }, questions: QUESTIONS }

/** A governor on a fake clock whose sleeps pass at once, recording each. */
function governed(over: Partial<GovernorOptions> = {}, store: Store = createMemoryStore()) {
  let now = 1_000_000
  const sleeps: number[] = []
  const governor = createGovernor({
    store,
    key: 'engine',
    rpm: 0,
    ceilingMs: 300_000,
    patience: { request: requestPatience(30_000), run: runPatience(300_000, 120_000) },
    now: () => now,
    random: () => 0,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason
      sleeps.push(ms)
      now += ms
    },
    ...over,
  })
  return { governor, sleeps, store, clock: () => now }
}

// As the HTTP adapters report a status: 400 is final, the others worth asking again.
const status = (code: number, retryAfterMs: number | null = null) =>
  new EngineError(`engine answered ${code}: no`, code, { retryAfterMs, transient: code !== 400 })

t.test('requests keep the pace: one turn per request, spaced at ENGINE_RPM', async (t) => {
  const { governor, sleeps } = governed({ rpm: 1224 })
  const engine = createFakeEngine()
  for (let i = 0; i < 3; i++) await governor.ask(engine, REQUEST, 'run')
  t.same(sleeps.map(Math.round), [50, 50])
  const perQuestion = { ...createFakeEngine(), estimate: () => ({ inputTokens: 1, requests: 3 }) }
  await governor.ask(perQuestion, REQUEST, 'run')
  await governor.ask(perQuestion, REQUEST, 'run')
  t.same(sleeps.map(Math.round), [50, 50, 50, 150], 'an engine sending three requests takes three turns')
})

t.test('requests an engine sent beyond its estimate count in the pace of the requests after them', async (t) => {
  const { governor, sleeps } = governed({ rpm: 1224 })
  // As a model found to give no log probabilities while asked: estimated one request, it took four.
  const fake = createFakeEngine()
  const learning = { ...fake, ask: async (r: EngineRequest) => ({ ...(await fake.ask(r)), requests: 4 }) }
  await governor.ask(learning, REQUEST, 'run')
  await governor.ask(fake, REQUEST, 'run')
  t.same(sleeps.map(Math.round), [200], 'the next request waits the turns of all four')
})

t.test('a run waits out a Retry-After longer than a request would, shared through the store', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i === 0 ? status(429, 7000) : undefined) })
  const { governor, sleeps, store, clock } = governed()
  const result = await governor.ask(engine, REQUEST, 'run')
  t.ok(result.distributions.is_spam)
  t.same(sleeps, [7000], 'the hold is waited at the next turn')
  t.equal(engine.calls.length, 2)
  t.same(store.reservePace('engine', clock() - 7000, 0, Infinity).at, clock(), 'the store holds the pace for everyone')
})

t.test('a Retry-After beyond ENGINE_MAX_WAIT_S is waited only up to it', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i === 0 ? status(429, 3_600_000) : undefined) })
  const { governor, sleeps } = governed({ ceilingMs: 60_000 })
  await governor.ask(engine, REQUEST, 'run')
  t.same(sleeps, [60_000])
})

t.test('a request answers 503-style at once when the engine asks for longer than its short budget', async (t) => {
  const engine = createFakeEngine({ fail: () => status(429, 7000) })
  const { governor, sleeps } = governed()
  const error = await governor.ask(engine, REQUEST, 'request').catch((e: unknown) => e)
  t.type(error, RetryLaterError)
  t.match(error, {
    status: 503,
    retryAfterS: 7,
    message: /rate-limiting requests \(engine answered 429: no\); try again in 7 s/,
  })
  t.same(sleeps, [])
  t.equal(engine.calls.length, 1)
})

t.test('a request retries a short rate limit, then gives the caller a Retry-After', async (t) => {
  const engine = createFakeEngine({ fail: () => status(429, 2000) })
  const { governor, sleeps } = governed()
  await t.rejects(governor.ask(engine, REQUEST, 'request'), { name: 'RetryLaterError', retryAfterS: 2 })
  t.same(sleeps, [2000, 2000])
  t.equal(engine.calls.length, 3)
})

t.test('a request whose turn is further than its budget is refused without asking', async (t) => {
  const { governor, store, clock } = governed()
  store.holdPace('engine', clock() + 60_000)
  const engine = createFakeEngine()
  await t.rejects(governor.ask(engine, REQUEST, 'request'), {
    name: 'RetryLaterError',
    retryAfterS: 60,
    message: /next free turn is 60 s away/,
  })
  t.equal(engine.calls.length, 0)
})

t.test("other failures: a request retries twice, then fails with the engine's words", async (t) => {
  const engine = createFakeEngine({ fail: () => status(500) })
  const { governor, sleeps } = governed()
  await t.rejects(governor.ask(engine, REQUEST, 'request'), {
    name: 'EngineError',
    status: 502,
    message: 'engine answered 500: no (after 3 attempts)',
  })
  t.same(sleeps, [500, 1000], 'backoff doubles')
})

t.test('a failure that asking again cannot mend is not retried', async (t) => {
  const engine = createFakeEngine({ fail: () => status(400) })
  const { governor } = governed()
  await t.rejects(governor.ask(engine, REQUEST, 'run'), { message: 'engine answered 400: no' })
  t.equal(engine.calls.length, 1)
})

t.test('a run rides out failures, each retry backing off further, at most 30 s', async (t) => {
  const engine = createFakeEngine({
    fail: (_r, i) =>
      i < 8 ? [status(500), status(408), new EngineError('network down', null, { transient: true })][i % 3] : undefined,
  })
  const { governor, sleeps } = governed()
  await governor.ask(engine, REQUEST, 'run')
  t.equal(engine.calls.length, 9)
  t.same(sleeps, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000])
})

t.test('a run gives up once the engine has failed for the budget without a success', async (t) => {
  const engine = createFakeEngine({ fail: () => status(503) })
  const { governor, sleeps } = governed({
    patience: { request: requestPatience(30_000), run: runPatience(300_000, 60_000) },
  })
  await t.rejects(governor.ask(engine, REQUEST, 'run'), {
    message: /^the engine kept failing for over 60 s without a success \(last: engine answered 503: no\)$/,
  })
  const waited = sleeps.reduce((a, b) => a + b, 0)
  t.ok(waited > 60_000 && waited < 120_000, `gave up after ${waited} ms of waits`)
  t.equal(governor.status().failing, engine.calls.length)
})

t.test('waits the engine asked for do not count toward giving up', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i < 3 ? status(429, 50_000) : undefined) })
  const { governor } = governed({ patience: { request: requestPatience(30_000), run: runPatience(300_000, 60_000) } })
  t.ok(await governor.ask(engine, REQUEST, 'run'), '150 s of Retry-After, and still going')
})

t.test('a cancelled call stops at once, even while waiting', async (t) => {
  const controller = new AbortController()
  const engine = createFakeEngine({ fail: () => status(503) })
  const { governor } = governed({
    sleep: (_ms, signal) =>
      new Promise((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason))),
  })
  const asking = governor.ask(engine, REQUEST, 'run', controller.signal)
  await new Promise((resolve) => setImmediate(resolve))
  controller.abort(new Error('stop'))
  await t.rejects(asking, { name: 'EngineError', message: 'the engine request was cancelled' })
})

t.test('a request that takes longer than its bound fails with the bound named', async (t) => {
  const engine = createFakeEngine({ latencyMs: 5_000 })
  const { governor } = governed({ patience: { request: requestPatience(20), run: runPatience(1, 1) } })
  await t.rejects(governor.ask(engine, REQUEST, 'request'), {
    name: 'EngineError',
    message: 'the engine did not answer within 20 ms, the bound on one request',
  })
})

t.test('a 429 halves the concurrency and the status tells a long wait for the rate limit', async (t) => {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const engine = createFakeEngine({ latencyMs: 10, fail: (_r, i) => (i === 0 ? status(429, 9000) : undefined) })
  const { governor, clock } = governed({ sleep: (ms) => (ms > 1000 ? gate : Promise.resolve()) })
  const asks = Array.from({ length: 4 }, () => governor.ask(engine, REQUEST, 'run'))
  while (governor.status().rateLimitedUntil === null) await new Promise((resolve) => setTimeout(resolve, 5))
  const { concurrency } = governor.status()
  t.ok(
    concurrency >= 2 && concurrency < 4,
    `four were in flight, halved to 2, and grown by the successes since: ${concurrency}`,
  )
  t.equal(governor.status().rateLimitedUntil, clock() + 9000)
  release()
  await Promise.all(asks)
  t.equal(governor.status().rateLimitedUntil, null)
  t.equal(governor.status().failing, 0)
})

t.test('a burst of 529s is ridden out with a backoff of its own, held for every request, counted apart', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i < 6 ? status(529) : undefined) })
  const { governor, sleeps, store, clock } = governed({
    patience: { request: requestPatience(30_000), run: runPatience(300_000, 20_000) },
  })
  const result = await governor.ask(engine, REQUEST, 'run')
  t.ok(result.distributions.is_spam)
  t.same(
    sleeps,
    [1000, 2000, 4000, 8000, 16_000, 30_000],
    'from 1 s doubling, at most 30 s, beyond the 20 s of failure a run gives up after',
  )
  t.match(governor.status(), { overloaded: 6, refused: 0, failing: 0 })
  t.equal(
    store.reservePace('engine', clock() - 5000, 0, Infinity).at,
    clock(),
    "the hold was the store's, and ends now",
  )
  const next = await governor.ask(
    createFakeEngine({ fail: (_r, i) => (i === 0 ? status(529) : undefined) }),
    REQUEST,
    'run',
  )
  t.ok(next.distributions.is_spam)
  t.equal(sleeps.at(-1), 1000, 'a success starts the backoff over')
})

t.test('a 529 that names its wait is held that long; a request gives up on a burst after its retries', async (t) => {
  const named = createFakeEngine({ fail: (_r, i) => (i === 0 ? status(529, 2500) : undefined) })
  const { governor, sleeps } = governed()
  await governor.ask(named, REQUEST, 'run')
  t.same(sleeps, [2500])
  const burst = createFakeEngine({ fail: () => status(529) })
  await t.rejects(governor.ask(burst, REQUEST, 'request'), {
    name: 'EngineError',
    engineStatus: 529,
    message: /after 3 attempts/,
  })
  t.equal(governor.status().overloaded, 4)
})

t.test('a 429 below ENGINE_RPM cuts the pace; the status tells the rate refused and the rate kept', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i === 0 ? status(429, 0) : undefined) })
  const { governor, store } = governed({ rpm: 1200 })
  await governor.ask(engine, REQUEST, 'run')
  const { refused, refusedRpm, rpm } = governor.status()
  t.equal(refused, 1)
  t.equal(refusedRpm, 1200, 'refused at ENGINE_RPM')
  t.ok(rpm >= 1020 && rpm < 1080, `the pace dropped at once, below it: ${rpm} a minute`)
  t.equal(store.paceCut('engine')?.ceiling, 1200, "the cut is the store's, for every process")
  t.equal(governed({ rpm: 0 }).governor.status().refusedRpm, null, 'no pace, nothing to cut')
})

t.test(
  'a wait the engine names is never shorter than the backoff judge would take: a zero does not spin',
  async (t) => {
    for (const code of [503, 429, 529]) {
      const engine = createFakeEngine({ fail: (_r, i) => (i < 4 ? status(code, 0) : undefined) })
      const { governor, sleeps, store, clock } = governed()
      await governor.ask(engine, REQUEST, 'run')
      t.same(sleeps, [500, 1000, 2000, 4000], `${code} with a wait of 0: the backoff from 0.5 s, doubling`)
      t.equal(store.reservePace('engine', clock() - 4000, 0, Infinity).at, clock(), `${code}: the hold is the store's`)
    }
    const short = createFakeEngine({ fail: (_r, i) => (i < 2 ? status(503, 700) : undefined) })
    const { governor, sleeps } = governed({ random: () => 0.5 })
    await governor.ask(short, REQUEST, 'run')
    t.same(sleeps, [750, 1500], 'the jittered backoff wins over a shorter named wait; a longer one would win over it')
  },
)

t.test(
  "an engine naming a zero wait on every failure is given up on after ENGINE_GIVE_UP_S: judge's backoff is not excused",
  async (t) => {
    // Bounded, so that a governor that spins ends too, with a success to show for it.
    const engine = createFakeEngine({ fail: (_r, i) => (i < 200 ? status(503, 0) : undefined) })
    const { governor, sleeps } = governed({
      patience: { request: requestPatience(30_000), run: runPatience(300_000, 20_000) },
    })
    await t.rejects(governor.ask(engine, REQUEST, 'run'), { message: /kept failing for over 20 s/ })
    const waited = sleeps.reduce((a, b) => a + b, 0)
    t.ok(waited > 20_000 && waited < 60_000, `gave up after ${waited} ms of backoff`)
    t.ok(engine.calls.length < 10, `${engine.calls.length} requests in ${waited} ms`)
  },
)
