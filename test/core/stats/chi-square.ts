import t from 'tap'
import { chiSquare, chiSquareSurvival, upperGamma } from '../../../src/core/stats/chi-square.ts'

const close = (a: number, b: number, tolerance = 1e-9) => Math.abs(a - b) <= tolerance

t.test('the chi-square tail matches tabled values', async (t) => {
  t.ok(close(chiSquareSurvival(3.841458820694124, 1), 0.05), 'the 5% point of 1 degree of freedom')
  t.ok(close(chiSquareSurvival(6.634896601021214, 1), 0.01), 'its 1% point')
  t.ok(close(chiSquareSurvival(5.991464547107979, 2), 0.05), 'the 5% point of 2')
  t.ok(close(chiSquareSurvival(0.5, 3), 0.918891411654676, 1e-12), 'a value below the mean (the series)')
  t.ok(close(chiSquareSurvival(40, 4), 4.35e-8, 1e-9), 'far in the tail (the continued fraction)')
  t.equal(chiSquareSurvival(0, 2), 1)
  t.ok(close(upperGamma(1, 2), Math.exp(-2), 1e-12), 'Q(1, x) is e^-x')
})

t.test("Pearson's statistic of a 2 × K table, an empty column passed over", async (t) => {
  t.ok(close(chiSquare([10, 90], [25, 75]), 7.792207792207792), 'scipy.stats.chi2_contingency(correction=False)')
  t.equal(chiSquare([10, 0, 90], [25, 0, 75]), chiSquare([10, 90], [25, 75]))
})
