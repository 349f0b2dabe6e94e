import t from 'tap'
import {
  backoffDelay, isRetryableStatus, parseRetryAfter, retry, retryDelay, sleep, type Attempt, type RetryPolicy,
} from '../../../src/adapters/system-one/retry.ts'

/** A policy that records its sleeps instead of sleeping. */
function policy(over: Partial<RetryPolicy> = {}) {
  const sleeps: number[] = []
  const p: RetryPolicy = {
    retries: 2, minDelayMs: 500, maxDelayMs: 5000, random: () => 0, sleep: async (ms) => void sleeps.push(ms), ...over,
  }
  return { policy: p, sleeps }
}

const failed = (retryable: boolean, retryAfterMs: number | null = null): Attempt<string, string> =>
  ({ ok: false, failure: `failure`, retryable, retryAfterMs })

t.test('the first success ends the attempts', async (t) => {
  const { policy: p, sleeps } = policy()
  const outcomes = [failed(true), { ok: true, value: 'answer' } as const]
  const result = await retry(async (i) => outcomes[i], p)
  t.same(result, { ok: true, value: 'answer', attempts: 2 })
  t.same(sleeps, [500])
})

t.test('a failure that cannot improve is not tried again', async (t) => {
  const { policy: p, sleeps } = policy()
  const result = await retry(async () => failed(false), p)
  t.same(result, { ok: false, failure: 'failure', attempts: 1 })
  t.same(sleeps, [])
})

t.test('retries stop when they are spent, and zero retries tries once', async (t) => {
  const { policy: p, sleeps } = policy()
  t.same(await retry(async () => failed(true), p), { ok: false, failure: 'failure', attempts: 3 })
  t.same(sleeps, [500, 1000])
  const once = policy({ retries: 0 })
  t.same(await retry(async () => failed(true), once.policy), { ok: false, failure: 'failure', attempts: 1 })
  t.same(once.sleeps, [])
})

t.test('the wait the server asks for replaces the backoff, up to the longest delay', async (t) => {
  const { policy: p, sleeps } = policy()
  const outcomes = [failed(true, 1200), failed(true, 60_000), { ok: true, value: 'x' } as const]
  await retry(async (i) => outcomes[i], p)
  t.same(sleeps, [1200, 5000])
  t.equal(retryDelay(1, 0, p), 0, 'Retry-After: 0 means at once')
})

t.test('backoff doubles from the shortest delay, jitters up to twice, and stops at the longest', async (t) => {
  const low = policy({ random: () => 0 }).policy
  const high = policy({ random: () => 0.999 }).policy
  t.same([1, 2, 3, 4, 5].map((n) => backoffDelay(n, low)), [500, 1000, 2000, 4000, 5000])
  t.same([1, 2, 3, 4].map((n) => backoffDelay(n, high)), [1000, 1999, 3998, 5000])
})

t.test('408, 429 and 5xx are worth retrying; other statuses are not', async (t) => {
  for (const status of [408, 429, 500, 502, 503, 504, 599]) t.ok(isRetryableStatus(status), `${status}`)
  for (const status of [200, 301, 400, 401, 403, 404, 409, 422, 600]) t.notOk(isRetryableStatus(status), `${status}`)
})

t.test('Retry-After reads delta-seconds and HTTP dates', async (t) => {
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')
  t.equal(parseRetryAfter('3', now), 3000)
  t.equal(parseRetryAfter(' 1.5 ', now), 1500)
  t.equal(parseRetryAfter('0', now), 0)
  t.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', now), 10_000)
  t.equal(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now), 0, 'a date in the past means at once')
  t.equal(parseRetryAfter(null, now), null)
  t.equal(parseRetryAfter('-5', now), null, 'a negative wait is unreadable')
  t.equal(parseRetryAfter('tomorrow-ish', now), null)
  t.equal(parseRetryAfter('', now), null)
  t.type(parseRetryAfter('Wed, 21 Oct 2099 07:28:00 GMT'), 'number', 'now defaults to the clock')
})

t.test('the real sleep waits, and stops early when the signal aborts', async (t) => {
  await sleep(1)
  const controller = new AbortController()
  const waiting = sleep(60_000, controller.signal)
  controller.abort()
  await t.rejects(waiting, { name: 'AbortError' })
})

t.test('a sleep cut short ends the attempts', async (t) => {
  const cancel = new Error('cancelled')
  const { policy: p } = policy({ sleep: async () => Promise.reject(cancel) })
  let attempts = 0
  await t.rejects(retry(async () => (attempts++, failed(true)), p), cancel)
  t.equal(attempts, 1)
})
