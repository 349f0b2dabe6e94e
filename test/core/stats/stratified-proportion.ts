import t from 'tap'
import { wilsonInterval } from '../../../src/core/stats/wilson.ts'
import { ADJUSTMENT } from '../../../src/core/stats/adjustment.ts'
import { stratifiedProportion } from '../../../src/core/stats/stratified-proportion.ts'

const close = (a: number, b: number, digits = 9) => Math.abs(a - b) < 10 ** -digits

t.test('one stratum sampled from a large population is the Wilson interval', async (t) => {
  const one = stratifiedProportion([{ size: 1e12, sampled: 12, counted: 12, successes: 9 }])!
  const wilson = wilsonInterval(9, 12)!
  t.equal(one.point, 0.75)
  t.ok(close(one.effectiveSize, 12, 6), `effective size ${one.effectiveSize}`)
  t.ok(
    close(one.interval[0], wilson[0], 6) && close(one.interval[1], wilson[1], 6),
    `${one.interval} against ${wilson}`,
  )
})

t.test(
  'strata weigh by their rows, and the variance is the stratified one with the finite-population correction',
  async (t) => {
    const cells = [
      { size: 800, sampled: 40, counted: 40, successes: 38 },
      { size: 200, sampled: 40, counted: 40, successes: 24 },
    ]
    const r = stratifiedProportion(cells)!
    t.ok(close(r.point, 0.8 * 0.95 + 0.2 * 0.6))
    const q = (x: number, n: number) => (x + ADJUSTMENT) / (n + 2 * ADJUSTMENT)
    const variance =
      (0.64 * (1 - 40 / 800) * q(38, 40) * (1 - q(38, 40))) / 40 +
      (0.04 * (1 - 40 / 200) * q(24, 40) * (1 - q(24, 40))) / 40
    const adjusted = 0.8 * q(38, 40) + 0.2 * q(24, 40)
    t.ok(close(r.effectiveSize, (adjusted * (1 - adjusted)) / variance, 6))
    t.ok(r.interval[0] < r.point && r.point < r.interval[1])
  },
)

t.test('a stratum with no failures still adds variance; a census adds none', async (t) => {
  const few = stratifiedProportion([{ size: 1000, sampled: 5, counted: 5, successes: 5 }])!
  t.equal(few.point, 1)
  t.equal(few.interval[1], 1)
  t.ok(few.interval[0] < 0.7, `five right of five leaves room below: ${few.interval[0]}`)
  const census = stratifiedProportion([{ size: 30, sampled: 30, counted: 30, successes: 27 }])!
  t.same(census, { point: 0.9, interval: [0.9, 0.9], effectiveSize: Infinity })
})

t.test("rows that could not be labelled shrink their stratum's weight", async (t) => {
  const r = stratifiedProportion([
    { size: 100, sampled: 10, counted: 5, successes: 5 },
    { size: 100, sampled: 10, counted: 10, successes: 0 },
  ])!
  t.ok(close(r.point, 1 / 3), 'half of the first stratum is unlabellable: it weighs 50 rows against 100')
})

t.test('not estimable when a stratum with rows has nothing counted, unless all of it was sampled', async (t) => {
  t.equal(
    stratifiedProportion([
      { size: 100, sampled: 10, counted: 10, successes: 9 },
      { size: 5, sampled: 0, counted: 0, successes: 0 },
    ]),
    null,
  )
  t.equal(stratifiedProportion([{ size: 100, sampled: 3, counted: 0, successes: 0 }]), null)
  t.equal(stratifiedProportion([]), null)
  const r = stratifiedProportion([
    { size: 100, sampled: 10, counted: 10, successes: 9 },
    { size: 5, sampled: 5, counted: 0, successes: 0 },
    { size: 0, sampled: 0, counted: 0, successes: 0 },
  ])!
  t.ok(close(r.point, 0.9), 'a stratum reviewed whole with nothing labellable, and an empty one, weigh nothing')
})
