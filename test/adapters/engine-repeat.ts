import t from 'tap'
import type { Posted } from '../../src/adapters/engine-http.ts'
import { READ_REPEAT, sendRepeated, type Repeat } from '../../src/adapters/engine-repeat.ts'

const busy = (retryAfterMs: number | null = null): Posted => ({
  ok: false,
  failure: { status: 503, message: 'engine answered 503: busy', transient: true, retryAfterMs },
})
const answered: Posted = { ok: true, value: 'ok' }

/** A send that gives the outcomes in turn, counting its calls. */
function sends(...outcomes: Posted[]) {
  let calls = 0
  return { send: async () => outcomes[Math.min(calls++, outcomes.length - 1)], calls: () => calls }
}

function repeatWith(waits: number[], over: Partial<Repeat> = {}): Repeat {
  return { ...READ_REPEAT, random: () => 0, sleep: async (ms) => void waits.push(ms), ...over }
}

t.test('a transient failure is tried again after the backoff, doubling, until it succeeds', async (t) => {
  const waits: number[] = []
  const { send, calls } = sends(busy(), busy(), answered)
  t.same(await sendRepeated(send, repeatWith(waits)), answered)
  t.equal(calls(), 3)
  t.same(waits, [500, 1000])
})

t.test('a Retry-After longer than the backoff is waited, up to the longest wait; a shorter one is not', async (t) => {
  const waits: number[] = []
  const { send } = sends(busy(2_000), busy(100_000), busy(0), answered)
  await sendRepeated(send, repeatWith(waits))
  t.same(waits, [2_000, 60_000, 2_000])
})

t.test('after the last attempt, or at a failure that is not transient, the failure is the outcome', async (t) => {
  const waits: number[] = []
  const spent = sends(busy())
  t.same(await sendRepeated(spent.send, repeatWith(waits, { attempts: 3 })), busy())
  t.equal(spent.calls(), 3, 'three attempts in all')
  const refused: Posted = { ok: false, failure: { status: 401, message: 'engine answered 401: no key' } }
  const once = sends(refused)
  t.same(await sendRepeated(once.send, repeatWith(waits)), refused)
  t.equal(once.calls(), 1, 'a refusal is not asked again')
})

t.test('a cancel during the wait ends it as cancelled', async (t) => {
  const controller = new AbortController()
  const { send, calls } = sends(busy())
  const outcome = sendRepeated(send, { ...READ_REPEAT, minBackoffMs: 60_000 }, controller.signal)
  setTimeout(() => controller.abort(new Error('stop')), 20)
  t.match(await outcome, { ok: false, failure: { status: null, message: 'the engine request was cancelled' } })
  t.equal(calls(), 1)
})
