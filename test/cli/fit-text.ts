import t from 'tap'
import { fitLines, lastFitText } from '../../src/cli/fit-text.ts'
import type { QuestionFit } from '../../src/core/fit/fit.ts'

const unfit: QuestionFit = {
  answers: 3,
  known: 3,
  median: 0.2,
  p10: 0.1,
  min_fit: 0.5,
  fits: false,
  lowest: [
    { state_hash: 'aaaa', option_mass: 0.1, state: { message: 'x'.repeat(200) } },
    { state_hash: 'bbbb', option_mass: 0.25, state: null },
  ],
}

t.test('a question that does not fit gets its figures and its rows of lowest mass, long values cut', async (t) => {
  const lines = fitLines({ topic: unfit, is_spam: { ...unfit, fits: true }, urgency: { ...unfit, fits: null } })
  t.equal(lines.length, 3)
  t.equal(
    lines[0],
    '  question topic does not fit its rows: median option mass 0.2 is below min_fit 0.5 (10th percentile 0.1; 3 of 3 answers with a mass). ' +
      "The model's next token was mostly not one of its labels; reword the question or its labels. Rows of lowest mass:",
  )
  t.equal(lines[1], `    0.10  {"message":"${'x'.repeat(105)}...`)
  t.equal(lines[2], '    0.25  row bbbb (its values are no longer in the store)')
  t.same(fitLines(undefined), [])
})

t.test(
  'the plan names each judgment whose last run found a question that does not fit, and nothing else',
  async (t) => {
    const text = lastFitText([
      { judgment: 'spam', run_id: 'r1', started_at: 'x', fit: { topic: unfit } },
      { judgment: 'ham', run_id: 'r2', started_at: 'x', fit: { q: { ...unfit, fits: true } } },
    ])
    t.match(text, /^\nspam: its last run \(r1\) found:\n  question topic does not fit/)
    t.notMatch(text, /ham/)
    t.equal(lastFitText([]), '')
  },
)
