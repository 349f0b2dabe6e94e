import t from 'tap'
import { createLimiter } from '../../../src/core/pacing/limiter.ts'

t.test('without a refusal there is no limit', async (t) => {
  const limiter = createLimiter(() => 0)
  await Promise.all(Array.from({ length: 50 }, () => limiter.acquire()))
  t.equal(limiter.inFlight, 50)
  t.equal(limiter.limit, Infinity)
  limiter.succeeded()
  t.equal(limiter.limit, Infinity, 'successes do not make a limit')
})

t.test('a refusal halves what was in flight; refusals of the same round count once', async (t) => {
  let now = 0
  const limiter = createLimiter(() => now)
  for (let i = 0; i < 8; i++) await limiter.acquire()
  now = 10
  limiter.refused(5)
  t.equal(limiter.limit, 4)
  limiter.refused(6)
  t.equal(limiter.limit, 4, 'a request sent before the cut is of the same round')
  now = 20
  limiter.refused(15)
  t.equal(limiter.limit, 2, 'a request sent after the cut is a new round')
  for (let i = 0; i < 30; i++) limiter.refused(now++)
  t.equal(limiter.limit, 1, 'never below one')
})

t.test('waiters get places as they free up, and in order', async (t) => {
  let now = 0
  const limiter = createLimiter(() => now)
  await limiter.acquire()
  await limiter.acquire()
  now = 1
  limiter.refused(0)
  t.equal(limiter.limit, 1)
  const order: number[] = []
  const third = limiter.acquire().then(() => order.push(3))
  const fourth = limiter.acquire().then(() => order.push(4))
  limiter.release()
  await Promise.resolve()
  t.same(order, [], 'one still in flight: at the limit')
  limiter.release()
  await third
  t.same(order, [3])
  limiter.release()
  await fourth
  t.same(order, [3, 4])
})

t.test('successes grow a limit back by one per round', async (t) => {
  let now = 0
  const limiter = createLimiter(() => now)
  for (let i = 0; i < 4; i++) await limiter.acquire()
  now = 1
  limiter.refused(0)
  t.equal(limiter.limit, 2)
  limiter.succeeded()
  limiter.succeeded()
  t.equal(limiter.limit, 3)
  for (let i = 0; i < 3; i++) limiter.succeeded()
  t.equal(limiter.limit, 4)
})

t.test('a waiter whose signal aborts leaves the queue with the reason', async (t) => {
  let now = 0
  const limiter = createLimiter(() => now)
  await limiter.acquire()
  now = 1
  limiter.refused(0)
  const controller = new AbortController()
  const waiting = limiter.acquire(controller.signal)
  controller.abort(new Error('stop'))
  await t.rejects(waiting, { message: 'stop' })
  await t.rejects(limiter.acquire(AbortSignal.abort(new Error('already'))), { message: 'already' })
  limiter.release()
  t.equal(limiter.inFlight, 0, 'the aborted waiter took no place')
})
