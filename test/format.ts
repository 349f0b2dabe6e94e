import t from 'tap'
import {
  costWords,
  count,
  decimals,
  distance,
  fewRows,
  formatUsd,
  percent,
  plural,
  points,
  pValue,
  ROUGH_WIDTH,
  withInterval,
} from '../src/format.ts'

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

t.test('a cost reads one way for every output: as spent, or for simulated answers as nothing spent', async (t) => {
  t.equal(costWords(0.0126, false), '$0.0126')
  t.equal(costWords(0.0126, true), 'would cost $0.0126 on System One (simulated: nothing spent)')
  t.equal(costWords(0.5, false, ' per 1,000 rows'), '$0.50 per 1,000 rows')
  t.equal(
    costWords(0.5, true, ' per 1,000 rows'),
    'would cost $0.50 per 1,000 rows on System One (simulated: nothing spent)',
  )
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

t.test(
  'an estimate whose interval is wider than 20 points says first, in words, that it rests on few rows',
  async (t) => {
    t.equal(
      fewRows(2, [0, 0.682]),
      'only 2 sampled rows have a known label, too few to say much: the accuracy is somewhere between 0% and 68%',
    )
    t.equal(
      fewRows(1, [0.206, 1]),
      'only 1 sampled row has a known label, too few to say much: the accuracy is somewhere between 21% and 100%',
    )
    t.equal(ROUGH_WIDTH, 0.2)
    t.equal(fewRows(60, [0.7, 0.9]), null, 'an interval of 20 points is narrow enough')
    t.match(fewRows(60, [0.69, 0.9]), /^only 60 sampled rows have a known label/)
    t.equal(fewRows(3, [1, 1]), null, 'a stratum reviewed whole leaves no doubt, however few its rows')
  },
)
