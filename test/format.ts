import t from 'tap'
import { count, decimals, distance, formatUsd, percent, plural, points, pValue, withInterval } from '../src/format.ts'

t.test('USD shows sub-cent amounts without trailing zeros', async (t) => {
  t.equal(formatUsd(0), '0.00')
  t.equal(formatUsd(0.01), '0.01')
  t.equal(formatUsd(0.0000126), '0.000013')
  t.equal(formatUsd(1.5), '1.50')
  t.equal(formatUsd(0.5), '0.50')
})

t.test('USD too small for six decimals keeps two significant digits, never reading as zero', async (t) => {
  t.equal(formatUsd(0.0000001), '0.0000001')
  t.equal(formatUsd(0.000000015), '0.000000015')
  t.equal(formatUsd(0.00001234), '0.000012')
  t.equal(formatUsd(1e-12), '0.000000000001')
})

t.test('a share reads as a percentage with one decimal', async (t) => {
  t.equal(percent(0.1234), '12.3%')
  t.equal(percent(1), '100.0%')
})

t.test('a p value reads to three decimals, as a bound below 0.001, and as a dash without one', async (t) => {
  t.equal(pValue(0.12345), 'p = 0.123')
  t.equal(pValue(0.001), 'p = 0.001')
  t.equal(pValue(0.0001), 'p < 0.001')
  t.equal(pValue(null), 'p -')
})

t.test('a difference reads in signed points with the ASCII minus', async (t) => {
  t.equal(points(0.034), '+3.4 points')
  t.equal(points(0), '+0.0 points')
  t.equal(points(-0.02), '-2.0 points')
  t.notMatch(points(-0.5), /\u2212/, 'never the typographic minus')
})

t.test('counts read with thousands separators, and with their noun made plural but for one', async (t) => {
  t.equal(count(12345), '12,345')
  t.equal(count(999), '999')
  t.equal(plural(1, 'row'), '1 row')
  t.equal(plural(2, 'row'), '2 rows')
  t.equal(plural(0, 'row'), '0 rows')
})

t.test('a distance between label mixes reads to three decimals', async (t) => {
  t.equal(distance(0.12345), '0.123')
  t.equal(distance(0), '0.000')
  t.equal(distance(1), '1.000')
})

t.test('a figure reads with its interval when it has one, the level named where the CLI names it', async (t) => {
  t.equal(withInterval(0.714, [0.5051, 0.8149], decimals(2)), '0.71 (0.51 to 0.81)')
  t.equal(withInterval(0.714, [0.5051, 0.8149], decimals(2), '95% '), '0.71 (95% 0.51 to 0.81)')
  t.equal(withInterval(0.25, [0.1, 0.4], percent, '95% '), '25.0% (95% 10.0% to 40.0%)')
  t.equal(withInterval(0.0123, null, decimals(3)), '0.012')
})
