import t from 'tap'
import {
  finiteCorrection,
  sampleVariance,
  stratifiedVariance,
  stratumShares,
  unread,
} from '../../../src/core/stats/stratified.ts'

t.test('each stratum weighs by its rows times the share of its sample that could be read', async (t) => {
  const shares = stratumShares([
    { size: 100, sampled: 10, counted: 8 },
    { size: 900, sampled: 30, counted: 30 },
  ])
  t.same(shares, [80 / 980, 900 / 980], 'two of ten rows of the first could not be read: it weighs 80 rows')
  t.same(
    stratumShares([
      { size: 5, sampled: 5, counted: 0 },
      { size: 0, sampled: 0, counted: 0 },
    ]),
    [0, 0],
    'nothing read, no weight',
  )
})

t.test(
  'a stratum with rows and nothing read leaves the estimate unreadable, unless it was sampled whole',
  async (t) => {
    t.equal(unread({ size: 20, sampled: 2, counted: 0 }), true)
    t.equal(unread({ size: 2, sampled: 2, counted: 0 }), false, 'reviewed whole: no row of it can be read')
    t.equal(unread({ size: 0, sampled: 0, counted: 0 }), false, 'an empty stratum')
    t.equal(unread({ size: 20, sampled: 2, counted: 1 }), false)
  },
)

t.test('the finite-population correction is 1 − k/N, never below 0', async (t) => {
  t.equal(finiteCorrection({ size: 900, sampled: 30 }), 1 - 30 / 900)
  t.equal(finiteCorrection({ size: 10, sampled: 10 }), 0)
  t.equal(finiteCorrection({ size: 10, sampled: 12 }), 0, 'a sample that counted a row twice')
})

t.test(
  "the stratified variance weighs each stratum's variance by its share squared, its correction and its rows",
  async (t) => {
    const terms = [
      { share: 0.2, fpc: 0.5, n: 2, within: 3 },
      { share: 0.8, fpc: 1, n: 1, within: sampleVariance(7, 49, 1) },
    ]
    t.ok(Math.abs(stratifiedVariance(terms) - (0.04 * 0.5 * 3) / 2) < 1e-15, 'a stratum of one row adds nothing')
    t.ok(
      Math.abs(stratifiedVariance([{ share: 0.8, fpc: 1, n: 4, within: 0.25 }]) - (0.64 * 0.25) / 4) < 1e-15,
      'a Bernoulli variance over four rows',
    )
    t.equal(stratifiedVariance([]), 0)
  },
)

t.test('the sample variance divides by n − 1, and one row holds none', async (t) => {
  // Rows 1, 2, 3, 6: mean 3, mean square 12.5; S² = (12.5 − 9)·4/3.
  t.ok(Math.abs(sampleVariance(3, 12.5, 4) - 14 / 3) < 1e-12)
  t.equal(sampleVariance(5, 25, 1), 0)
  t.equal(sampleVariance(0, 0, 0), 0)
})
