import t from 'tap'
import { DEFAULT_MIN_FIT } from '../../../src/core/spec/spec-parse.ts'
import {
  countMass,
  emptyMassCounts,
  questionFit as fitOfCounts,
  unfitQuestions,
  type FitRow,
  type RunFit,
} from '../../../src/core/fit/fit.ts'

/** The fit of masses in hand, counted as a run counts them. */
function questionFit(answers: number, masses: readonly number[], lowest: readonly FitRow[], minFit: number) {
  const counts = emptyMassCounts()
  for (const mass of masses) countMass(counts, mass)
  return fitOfCounts(answers, counts, lowest, minFit)
}

t.test(
  'the median of an odd count is the middle value, of an even count the mean of the two middle ones',
  async (t) => {
    t.equal(questionFit(3, [0.9, 0.1, 0.5], [], 0.5).median, 0.5)
    t.equal(questionFit(4, [0.9, 0.1, 0.5, 0.3], [], 0.5).median, 0.4)
  },
)

t.test('the low tail is the 10th percentile by nearest rank', async (t) => {
  const values = Array.from({ length: 20 }, (_, i) => (i + 1) / 20)
  t.equal(questionFit(20, values, [], 0.5).p10, 0.1, 'the 2nd of 20')
  t.equal(questionFit(1, [0.7], [], 0.5).p10, 0.7, 'the only value')
})

t.test('a median below min_fit does not fit; at or above it does', async (t) => {
  t.equal(questionFit(2, [0.2, 0.4], [], 0.5).fits, false)
  t.equal(questionFit(2, [0.4, 0.6], [], 0.5).fits, true, 'exactly the threshold fits')
  t.equal(questionFit(2, [0.4, 0.6], [], 0.6).fits, false)
  t.equal(DEFAULT_MIN_FIT, 0.5)
})

t.test('answers without a known mass count as answers and nothing else', async (t) => {
  t.same(questionFit(5, [], [], 0.5), {
    answers: 5,
    known: 0,
    median: null,
    p10: null,
    min_fit: 0.5,
    fits: null,
    lowest: [],
  })
  t.match(questionFit(5, [0.8], [], 0.5), { answers: 5, known: 1, median: 0.8 })
})

t.test(
  'masses are counted to four decimals: exact figures for such masses, a median within 0.0001 of the exact one for others',
  async (t) => {
    t.equal(questionFit(2, [0.1234, 0.2], [], 0.5).median, 0.1617, 'the mean of 0.1234 and 0.2, rounded')
    t.equal(questionFit(2, [0.123456, 0.2], [], 0.5).median, 0.1618, 'exactly 0.161728; counted as 0.1235 and 0.2')
    t.equal(questionFit(3, [0.99996, 0.00004, 0.5], [], 0.5).p10, 0, 'masses at the ends are counted at 0 and 1')
    // Random masses of full precision: the 10th percentile is the exact one rounded, the median within a step.
    let seed = 7
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
    for (let trial = 0; trial < 200; trial++) {
      const masses = Array.from({ length: 1 + (trial % 40) }, random)
      const sorted = [...masses].sort((a, b) => a - b)
      const n = sorted.length
      const exactMedian = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
      const fit = questionFit(n, masses, [], 0.5)
      t.equal(fit.p10, Math.round(sorted[Math.max(0, Math.ceil(0.1 * n) - 1)] * 1e4) / 1e4, `p10, trial ${trial}`)
      t.ok(
        Math.abs(fit.median! - exactMedian) <= 1e-4 + 1e-12,
        `median ${fit.median} against ${exactMedian}, trial ${trial}`,
      )
    }
  },
)

t.test("the questions that do not fit are named in the run's order; unknown fit is not a warning", async (t) => {
  const fit = (fits: boolean | null) => ({
    answers: 1,
    known: 1,
    median: 0.1,
    p10: 0.1,
    min_fit: 0.5,
    fits,
    lowest: [],
  })
  const run: RunFit = { a: fit(false), b: fit(true), c: fit(null), d: fit(false) }
  t.same(
    unfitQuestions(run).map(([q]) => q),
    ['a', 'd'],
  )
  t.same(unfitQuestions(undefined), [])
})
