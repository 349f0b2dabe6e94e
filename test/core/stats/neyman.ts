import t from 'tap'
import { neymanAllocation, type NeymanStratum } from '../../../src/core/stats/neyman.ts'

const stratum = (size: number, sampled: number, spread = 0.5): NeymanStratum => ({ size, sampled, spread })

t.test('the split of many rows follows N·S', async (t) => {
  // N·S of 1,500 × 0.49 and 8,500 × 0.17, with 100 of each sampled.
  const strata = [stratum(1500, 100, 0.49), stratum(8500, 100, 0.17)]
  const [first, second] = neymanAllocation(strata, 2000)
  t.equal(first + second, 2000, 'every row is placed')
  const share = (100 + first) / 2200
  const target = (1500 * 0.49) / (1500 * 0.49 + 8500 * 0.17)
  t.ok(Math.abs(share - target) < 0.001, `first share ${share.toFixed(3)} is N·S's ${target.toFixed(3)}`)
})

t.test('a stratum sampled past its share gets none, and the others take every row', async (t) => {
  t.same(neymanAllocation([stratum(1000, 300), stratum(1000, 10)], 20), [0, 20])
})

t.test(
  'no stratum gets more than its unsampled rows; the rest goes to the others, and nothing past every row',
  async (t) => {
    const strata = [stratum(10, 2), stratum(10_000, 0)]
    const split = neymanAllocation(strata, 5000)
    t.ok(split[0] <= 8, 'the small stratum is capped at its 8 unsampled rows')
    t.equal(split[0] + split[1], 5000)
    t.same(neymanAllocation([stratum(5, 0), stratum(5, 0)], 100), [5, 5], 'every row, no more')
    t.same(neymanAllocation([stratum(0, 0), stratum(50, 0)], 3), [0, 3], 'an empty stratum gets none')
    t.same(neymanAllocation(strata, 0), [0, 0])
    t.same(neymanAllocation(strata, -4), [0, 0], 'a negative count is none')
    t.same(neymanAllocation([], 7), [], 'no strata, nothing to place')
  },
)

t.test('the split is in whole rows that sum to the count asked for, over any number of strata', async (t) => {
  for (let extra = 1; extra < 40; extra++) {
    const split = neymanAllocation([stratum(300, 7, 0.45), stratum(1700, 13, 0.3), stratum(600, 2, 0.2)], extra)
    t.ok(split.every(Number.isInteger) && split.reduce((a, b) => a + b, 0) === extra, `${extra}: ${split.join(' + ')}`)
  }
})
