import t from 'tap'
import { BINS, calibration } from '../../../src/core/review/calibration.ts'
import type { WeightedRow } from '../../../src/core/review/sample-design.ts'

const row = (p: number, correct: boolean, weight: number): WeightedRow => ({
  row: {
    stateHash: `${p}${correct}${weight}`,
    stratum: 'confident',
    label: 'yes',
    p,
    margin: 2 * p - 1,
    truth: [correct ? 'yes' : 'no'],
    correct,
  },
  weight,
})

t.test(
  "answers are binned by confidence; each bin's accuracy weighs its rows by the answers they stand for",
  async (t) => {
    const cells = [
      { label: 'yes', p: 0.55, margin: 0.1, count: 100 },
      { label: 'no', p: 0.95, margin: 0.9, count: 300 },
      { label: 'yes', p: 1, margin: 1, count: 100 },
    ]
    const rows = [row(0.55, true, 10), row(0.55, false, 30), row(0.95, true, 50), row(0.96, true, 50)]
    const c = calibration(cells, rows)
    t.equal(c.bins.length, BINS)
    t.match(c.bins[5], { low: 0.5, high: 0.6, answers: 100, share: 0.2, confidence: 0.55, sampled: 2, accuracy: 0.25 })
    t.match(c.bins[9], { answers: 400, share: 0.8, sampled: 2, accuracy: 1 }, 'p = 1 falls in the last bin')
    t.ok(Math.abs(c.bins[9].confidence! - (0.95 * 300 + 100) / 400) < 1e-12)
    t.same(c.bins[0], {
      low: 0,
      high: 0.1,
      answers: 0,
      share: 0,
      confidence: null,
      sampled: 0,
      accuracy: null,
      interval: null,
    })
    const [low, high] = c.bins[5].interval!
    t.ok(low < 0.25 && 0.25 < high, "the interval is Wilson's at the effective sample size")
    const ece = (0.2 * Math.abs(0.25 - 0.55) + 0.8 * Math.abs(1 - c.bins[9].confidence!)) / 1
    t.ok(Math.abs(c.ece! - ece) < 1e-12)
    t.equal(c.covered, 1)
  },
)

t.test('bins without a sample leave the ECE, which says what share of answers it speaks for', async (t) => {
  const c = calibration(
    [
      { label: 'yes', p: 0.55, margin: 0.1, count: 100 },
      { label: 'yes', p: 0.95, margin: 0.9, count: 300 },
    ],
    [row(0.95, true, 300)],
  )
  t.equal(c.covered, 0.75)
  t.ok(Math.abs(c.ece! - 0.05) < 1e-12)
  t.same(calibration([], []), { bins: calibration([], []).bins, ece: null, covered: 0 })
})
