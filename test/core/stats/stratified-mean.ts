import t from 'tap'
import { clopperPearson } from '../../../src/core/stats/clopper-pearson.ts'
import { PSEUDO, stratifiedMean } from '../../../src/core/stats/stratified-mean.ts'

const ones = (x: number, n: number) => Array.from({ length: n }, (_, i) => (i < x ? 1 : 0))

t.test("one stratum of a proportion is Clopper-Pearson's interval at its own sample size", async (t) => {
  const result = stratifiedMean([{ size: 500, values: ones(7, 100) }])!
  t.equal(result.point, 0.07)
  t.ok(Math.abs(result.effectiveSize - 100) < 1e-9, `n* = ${result.effectiveSize}`)
  const [low, high] = clopperPearson(7, 100)!
  t.ok(Math.abs(result.interval[0] - low) < 1e-9 && Math.abs(result.interval[1] - high) < 1e-9)
})

t.test('strata weigh by their rows, and a sample with no flips still has an interval above 0', async (t) => {
  const result = stratifiedMean([
    { size: 900, values: ones(0, 100) },
    { size: 100, values: ones(20, 100) },
  ])!
  t.ok(Math.abs(result.point - 0.02) < 1e-12, 'point = 0.9 · 0 + 0.1 · 0.2')
  t.ok(result.interval[0] >= 0 && result.interval[0] < 0.02, `${result.interval}`)
  t.ok(result.interval[1] > 0.02 && result.interval[1] < 0.06, `${result.interval}`)
  const none = stratifiedMean([
    { size: 900, values: ones(0, 100) },
    { size: 100, values: ones(0, 100) },
  ])!
  t.equal(none.point, 0)
  t.same(none.interval[0], 0)
  t.ok(
    none.interval[1] > 0 && none.interval[1] < 0.05,
    'nothing seen: 0, with an upper end that shrinks with the sample',
  )
})

t.test('values between 0 and 1 take their own spread, pulled in by the pseudo-values', async (t) => {
  const values = [0, 0, 0.1, 0.5]
  const result = stratifiedMean([{ size: 10, values }])!
  t.equal(result.point, 0.15)
  const tilde = (0.6 + PSEUDO) / (4 + 2 * PSEUDO)
  const v =
    (values.reduce((a, y) => a + (y - tilde) ** 2, 0) + PSEUDO * (tilde ** 2 + (1 - tilde) ** 2)) / (4 + 2 * PSEUDO)
  t.ok(Math.abs(result.effectiveSize - (tilde * (1 - tilde)) / (v / 4)) < 1e-9)
  t.ok(result.interval[0] <= 0.15 && result.interval[1] >= 0.15)
})

t.test('no estimate without rows, or when a stratum with rows has no value', async (t) => {
  t.equal(stratifiedMean([]), null)
  t.equal(stratifiedMean([{ size: 0, values: [] }]), null)
  t.equal(
    stratifiedMean([
      { size: 5, values: [1] },
      { size: 5, values: [] },
    ]),
    null,
  )
  t.not(
    stratifiedMean([
      { size: 5, values: [1] },
      { size: 0, values: [] },
    ]),
    null,
    'an empty stratum is left out',
  )
})
