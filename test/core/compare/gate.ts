import t from 'tap'
import type { QuestionComparison } from '../../../src/core/compare/compare.ts'
import { gatedQuestions, gateFailures, REQUIREMENTS, SCOPES } from '../../../src/core/compare/gate.ts'

const q = (interval: [number, number] | null, over: Partial<QuestionComparison> = {}): QuestionComparison => ({
  changed: true,
  changes: ['question'],
  rows: 100,
  discordant: 0.1,
  discordant_rows: 10,
  flips: [],
  reviewed: 10,
  next: null,
  paired: null,
  difference: interval && (interval[0] + interval[1]) / 2,
  interval,
  p_value: 0.5,
  rows_difference: null,
  method: interval && 'discordant rows',
  verdict: 'no difference shown',
  reviews_needed: 0,
  ...over,
})

t.test('not-worse needs the lower end above -margin; better, above 0', async (t) => {
  t.same(REQUIREMENTS, ['not-worse', 'better'])
  t.same(gateFailures({ a: q([-0.005, 0.02]) }, 'not-worse', 0.01), [])
  t.match(gateFailures({ a: q([-0.02, 0.01]) }, 'not-worse', 0.01), [
    /^a: difference -0\.5 points, 95% interval -2\.0 points to \+1\.0 points: its lower end is not above -1\.0 points$/,
  ])
  t.match(gateFailures({ a: q([-0.005, 0.02]) }, 'better', 0.01), [/its lower end is not above 0$/])
  t.same(gateFailures({ a: q([0.001, 0.02], { verdict: 'better', p_value: 0.01 }) }, 'better', 0.01), [])
})

t.test('better needs the verdict better: an interval above 0 without a p below 0.05 fails', async (t) => {
  t.match(gateFailures({ a: q([0.001, 0.02], { p_value: 0.06, method: 'paired rows' }) }, 'better', 0.01), [
    /^a: difference \+1\.1 points, 95% interval \+0\.1 points to \+2\.0 points, but McNemar's exact p = 0\.060 is not below 0\.05$/,
  ])
})

t.test(
  'about the rows themselves, a question with every discordant row known is judged on its exact difference',
  async (t) => {
    const census = q([-0.3, 0.5], { rows_difference: 0.02, difference: 0.02 })
    t.match(
      gateFailures({ a: census }, 'better', 0.01),
      [/lower end is not above 0/],
      'about traffic, two rows are not enough',
    )
    t.same(gateFailures({ a: census }, 'better', 0.01, 'rows'), [])
    t.same(gateFailures({ a: census }, 'not-worse', 0.01, 'rows'), [])
    t.same(gateFailures({ a: q([-0.3, 0.5], { rows_difference: -0.02 }) }, 'not-worse', 0.01, 'rows'), [
      'a: difference on the compared rows -2.0 points (every discordant row known): not above -1.0 points',
    ])
    t.match(
      gateFailures({ a: q([-0.02, 0.01]) }, 'not-worse', 0.01, 'rows'),
      [/its lower end is not above -1\.0 points$/],
      'a sample of the discordant rows: the interval still decides',
    )
    t.same(SCOPES, ['traffic', 'rows'])
  },
)

t.test('a question without an estimate fails, naming the reviews that would settle it', async (t) => {
  t.same(gateFailures({ a: q(null, { reviews_needed: 12, next: 'abc' }) }, 'not-worse', 0.01), [
    "a: no difference estimated yet: review 12 discordant rows in the comparison's order (next abc)",
  ])
  t.same(gateFailures({ a: q(null, { reviews_needed: 1 }) }, 'better', 0.01), [
    "a: no difference estimated yet: review 1 discordant row in the comparison's order",
  ])
})

t.test('an unchanged question is outside the gate, whatever its figures; the changed ones are judged', async (t) => {
  const unchanged = q([-0.3, 0.3], { changed: false, changes: [], verdict: 'unchanged' })
  for (const require of REQUIREMENTS) {
    t.same(gateFailures({ a: unchanged }, require, 0.01), [], require)
    t.same(gateFailures({ a: unchanged }, require, 0.01, 'rows'), [], `${require} about the rows`)
  }
  t.match(gateFailures({ a: unchanged, b: q([-0.3, 0.3]) }, 'not-worse', 0.01), [/^b: /])
  t.same(gatedQuestions({ a: unchanged, b: q([-0.3, 0.3]), c: q(null) }), ['b', 'c'])
  t.same(gatedQuestions({ a: unchanged }), [])
})
