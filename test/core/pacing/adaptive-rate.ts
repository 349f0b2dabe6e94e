import t from 'tap'
import { adaptedRpm, CUT_TO, cutAt, PROBE_PER_S, SETTLE_AT } from '../../../src/core/pacing/adaptive-rate.ts'

t.test('without a cut, or without a pace, the rate is ENGINE_RPM', async (t) => {
  t.equal(adaptedRpm(1200, null, 5000), 1200)
  t.equal(adaptedRpm(0, { at: 0, ceiling: 600 }, 5000), 0)
})

t.test('a cut drops the rate at once, climbs back to just under the rate refused, then probes gently', async (t) => {
  const cut = { at: 10_000, ceiling: 1000 }
  t.equal(adaptedRpm(2400, cut, 10_000), 1000 * CUT_TO, 'down at once')
  t.equal(adaptedRpm(2400, cut, 9000), 1000 * CUT_TO, 'a clock behind the cut reads as the cut')
  const settled = adaptedRpm(2400, cut, 10_000 + 20_000)
  t.ok(Math.abs(settled - 1000 * (SETTLE_AT + 20 * PROBE_PER_S)) < 2, `settled in 20 s: ${settled}`)
  const rates = [1, 2, 5, 10, 30, 60].map((s) => adaptedRpm(2400, cut, 10_000 + s * 1000))
  t.same(
    rates,
    [...rates].sort((a, b) => a - b),
    'never down between cuts',
  )
  t.equal(adaptedRpm(2400, cut, 10_000 + 3_600_000), 2400, 'back to ENGINE_RPM in time, never above it')
})

t.test('a refusal cuts from the rate in force when it came', async (t) => {
  t.same(cutAt(1200, null, 500), { at: 500, ceiling: 1200 })
  const first = { at: 0, ceiling: 1000 }
  t.same(cutAt(1200, first, 0), { at: 0, ceiling: 1000 * CUT_TO })
})
