import t from 'tap'
import { effectiveSizeInterval, kishSize } from '../../../src/core/stats/effective-size.ts'
import { wilsonInterval } from '../../../src/core/stats/wilson.ts'

t.test("at the variance of a simple random sample, it is Wilson's interval of that sample", async (t) => {
  // 30 of 40: the variance p(1 − p)/n gives back n = 40.
  const { interval, effectiveSize } = effectiveSizeInterval(0.75, 0.75, (0.75 * 0.25) / 40)
  t.ok(Math.abs(effectiveSize - 40) < 1e-9, `${effectiveSize}`)
  const wilson = wilsonInterval(30, 40)!
  t.ok(
    Math.abs(interval[0] - wilson[0]) < 1e-12 && Math.abs(interval[1] - wilson[1]) < 1e-12,
    `${interval} against ${wilson}`,
  )
})

t.test('a larger variance is a smaller effective sample and a wider interval', async (t) => {
  const narrow = effectiveSizeInterval(0.75, 0.75, 0.001)
  const wide = effectiveSizeInterval(0.75, 0.75, 0.004)
  t.ok(Math.abs(narrow.effectiveSize / wide.effectiveSize - 4) < 1e-9)
  t.ok(wide.interval[0] < narrow.interval[0] && narrow.interval[1] < wide.interval[1])
})

t.test('the interval always holds the point, and no variance is the point alone', async (t) => {
  // A point of 1 read at an adjusted 0.9: Wilson's upper bound would be exactly 1, its lower below.
  const top = effectiveSizeInterval(1, 0.9, 0.01)
  t.equal(top.interval[1], 1)
  t.ok(top.interval[0] < 1)
  t.same(effectiveSizeInterval(0.4, 0.4, 0), { interval: [0.4, 0.4], effectiveSize: Infinity })
  t.same(
    effectiveSizeInterval(0.4, 0.4, Number.NaN),
    { interval: [0.4, 0.4], effectiveSize: Infinity },
    'nor does a variance that is not a number',
  )
})

t.test("Kish's effective size is the row count for equal weights, and less for unequal ones", async (t) => {
  t.equal(kishSize([3, 3, 3, 3]), 4)
  t.equal(kishSize([1, 1, 2]), 16 / 6, '(1 + 1 + 2)² / (1 + 1 + 4)')
  t.ok(kishSize([100, 1, 1, 1]) < 1.1, 'one row that weighs all but nothing is about one row')
})
