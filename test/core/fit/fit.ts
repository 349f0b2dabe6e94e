import t from 'tap'
import { DEFAULT_MIN_FIT, questionFit, unfitQuestions, type RunFit } from '../../../src/core/fit/fit.ts'

t.test('the median of an odd count is the middle value, of an even count the mean of the two middle ones', async (t) => {
  t.equal(questionFit(3, [0.9, 0.1, 0.5], [], 0.5).median, 0.5)
  t.equal(questionFit(4, [0.9, 0.1, 0.5, 0.3], [], 0.5).median, 0.4)
})

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
  t.same(questionFit(5, [], [], 0.5), { answers: 5, known: 0, median: null, p10: null, min_fit: 0.5, fits: null, lowest: [] })
  t.match(questionFit(5, [0.8], [], 0.5), { answers: 5, known: 1, median: 0.8 })
})

t.test('figures are rounded to four decimals', async (t) => {
  t.equal(questionFit(2, [0.123456, 0.2], [], 0.5).median, 0.1617)
})

t.test('the questions that do not fit are named in the run\'s order; unknown fit is not a warning', async (t) => {
  const fit = (fits: boolean | null) => ({ answers: 1, known: 1, median: 0.1, p10: 0.1, min_fit: 0.5, fits, lowest: [] })
  const run: RunFit = { a: fit(false), b: fit(true), c: fit(null), d: fit(false) }
  t.same(unfitQuestions(run).map(([q]) => q), ['a', 'd'])
  t.same(unfitQuestions(undefined), [])
})
