import t from 'tap'
import { jackknife } from '../../../src/core/stats/jackknife.ts'

const mean = (strata: readonly { share: number; rows: readonly number[] }[]) =>
  strata.reduce((sum, s) => sum + (s.share * s.rows.reduce((a, b) => a + b, 0)) / s.rows.length, 0)

t.test("the jackknife of a mean is the mean's usual standard error", async (t) => {
  const rows = [1, 4, 2, 8, 5, 7]
  const n = rows.length
  const m = rows.reduce((a, b) => a + b, 0) / n
  const sd = Math.sqrt(rows.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1))
  const result = jackknife([{ share: 1, fpc: 1, rows }], mean, [-Infinity, Infinity])!
  t.ok(Math.abs(result.point - m) < 1e-12)
  t.ok(Math.abs(result.standard_error - sd / Math.sqrt(n)) < 1e-12)
  t.ok(Math.abs(result.interval[0] - (m - 1.959963984540054 * result.standard_error)) < 1e-9)
})

t.test('strata add their terms, each shrunk by its finite-population correction; an interval is clipped', async (t) => {
  const a = [0, 1, 1, 0]
  const b = [1, 1, 1, 0, 1]
  const one = jackknife([{ share: 1, fpc: 1, rows: a }], mean, [0, 1])!
  const two = jackknife(
    [
      { share: 0.5, fpc: 0.5, rows: a },
      { share: 0.5, fpc: 1, rows: b },
    ],
    mean,
    [0, 1],
  )!
  const varB = jackknife([{ share: 1, fpc: 1, rows: b }], mean)!.standard_error ** 2
  t.ok(Math.abs(two.standard_error ** 2 - (0.25 * 0.5 * one.standard_error ** 2 + 0.25 * varB)) < 1e-12)
  t.ok(jackknife([{ share: 1, fpc: 1, rows: [1, 1, 1, 0] }], mean, [0, 1])!.interval[1] <= 1)
})

t.test('an undefined figure has no interval; undefined replicates and strata of one row are left out', async (t) => {
  t.equal(
    jackknife([{ share: 1, fpc: 1, rows: [] as number[] }], () => NaN),
    null,
  )
  const picky = (strata: readonly { rows: readonly number[] }[]) =>
    strata[0].rows.includes(9) ? strata[0].rows.length : NaN
  const result = jackknife([{ share: 1, fpc: 1, rows: [9, 9, 1] }], picky, [0, 10])!
  t.equal(result.point, 3)
  t.equal(result.standard_error, 0, 'the two replicates that keep a 9 agree')
  t.equal(jackknife([{ share: 1, fpc: 1, rows: [5] }], mean, [0, 10])!.standard_error, 0)
})
