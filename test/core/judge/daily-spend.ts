import t from 'tap'
import { dailySpend, simulatedSource, spentToday, utcDay } from '../../../src/core/judge/daily-spend.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'

t.test('spend is recorded per UTC day, and the cap refuses what would pass it', async (t) => {
  const store = createMemoryStore()
  let now = new Date('2026-11-22T23:59:00Z')
  const meter = dailySpend(store, 0.01, () => now)
  meter.check(0.01)
  meter.record(0.006, 1)
  t.equal(spentToday(store, 'server', now), 0.006)
  t.throws(() => meter.check(0.005), {
    name: 'RetryLaterError',
    status: 503,
    retryAfterS: 60,
    message: /\$0\.006 spent today/,
  })
  meter.check(0.004)
  now = new Date('2026-11-23T00:00:01Z')
  t.equal(spentToday(store, 'server', now), 0, 'a new day starts from nothing')
  meter.check(0.01)
  t.equal(utcDay(now), '2026-11-23')
})

t.test('without a cap the spend is only recorded', async (t) => {
  const store = createMemoryStore()
  const meter = dailySpend(store, null, () => new Date('2026-11-22T10:00:00Z'))
  meter.check(1e9)
  meter.record(2, 3)
  t.same(store.spendByDay('server', 7), [{ day: '2026-11-22', cost: 2, requests: 3 }])
})

t.test("a simulated answer's cost is recorded apart, and the cap does not count it", async (t) => {
  const store = createMemoryStore()
  const now = new Date('2026-11-22T10:00:00Z')
  const meter = dailySpend(store, 0.01, () => now)
  meter.record(5, 4, true)
  t.same(store.spendByDay(simulatedSource('server'), 7), [{ day: '2026-11-22', cost: 5, requests: 4 }])
  t.equal(simulatedSource('server'), 'server-simulated')
  t.equal(spentToday(store, 'server', now), 0)
  meter.check(0.01)
})
