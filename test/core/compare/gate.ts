import t from 'tap'
import type { QuestionComparison } from '../../../src/core/compare/compare.ts'
import { gateFailures, REQUIREMENTS } from '../../../src/core/compare/gate.ts'

const q = (interval: [number, number] | null, over: Partial<QuestionComparison> = {}): QuestionComparison => ({
  rows: 100, discordant: 0.1, discordant_rows: 10, flips: [], reviewed: 10, next: null, paired: null,
  difference: interval && (interval[0] + interval[1]) / 2, interval, p_value: 0.5, method: interval && 'discordant rows', verdict: 'no difference shown', reviews_needed: 0, ...over,
})

t.test('not-worse needs the lower end above -margin; better, above 0', async (t) => {
  t.same(REQUIREMENTS, ['not-worse', 'better'])
  t.same(gateFailures({ a: q([-0.005, 0.02]) }, 'not-worse', 0.01), [])
  t.match(gateFailures({ a: q([-0.02, 0.01]) }, 'not-worse', 0.01), [/^a: difference -0\.5 points, 95% interval -2\.0 points to \+1\.0 points: its lower end is not above -1\.0 points$/])
  t.match(gateFailures({ a: q([-0.005, 0.02]) }, 'better', 0.01), [/its lower end is not above 0$/])
  t.same(gateFailures({ a: q([0.001, 0.02]) }, 'better', 0.01), [])
})

t.test('a question without an estimate fails, naming the reviews that would settle it', async (t) => {
  t.same(gateFailures({ a: q(null, { reviews_needed: 12, next: 'abc' }) }, 'not-worse', 0.01), ['a: no difference estimated yet: review 12 discordant rows in the comparison\'s order (next abc)'])
  t.same(gateFailures({ a: q(null, { reviews_needed: 1 }) }, 'better', 0.01), ['a: no difference estimated yet: review 1 discordant row in the comparison\'s order'])
})
