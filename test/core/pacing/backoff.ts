import t from 'tap'
import { backoffMs } from '../../../src/core/pacing/backoff.ts'

t.test('the backoff doubles from its least, jittered by up to as much again, within its most', async (t) => {
  t.same(
    [0, 1, 2, 3].map((n) => backoffMs(n, 500, 3_000, () => 0)),
    [500, 1_000, 2_000, 3_000],
  )
  t.equal(
    backoffMs(1, 500, 3_000, () => 0.5),
    1_500,
    'jitter adds up to the base again',
  )
  t.equal(
    backoffMs(2, 500, 3_000, () => 0.99),
    3_000,
    'never above the most',
  )
  t.equal(
    backoffMs(1_000, 1, 2 ** 30, () => 0),
    2 ** 20,
    'the doubling stops after 20 rounds',
  )
})
