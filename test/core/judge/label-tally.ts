import t from 'tap'
import { tallyLabel, tallyLabels, type LabelTally } from '../../../src/core/judge/label-tally.ts'

t.test('a label counts its rows, its distinct states and Σ m² of them, row by row', async (t) => {
  const byLabel = new Map<string, LabelTally>()
  // A state of three rows and another of one, both yes; a state of two rows, no.
  for (const [label, m] of [
    ['yes', 1],
    ['yes', 2],
    ['no', 1],
    ['yes', 1],
    ['yes', 3],
    ['no', 2],
  ] as const)
    tallyLabel(byLabel, label, m)
  t.same(byLabel.get('yes'), { rows: 4, states: 2, squares: 3 * 3 + 1 })
  t.same(byLabel.get('no'), { rows: 2, states: 1, squares: 2 * 2 })
})

t.test('a row counts one label per question of its answers', async (t) => {
  const byQuestion = new Map<string, Map<string, LabelTally>>()
  const answer = (label: string) => ({ label, p: 0.9, margin: 0.8, route: '', cached: false, p_source: null })
  tallyLabels(byQuestion, { is_spam: answer('yes'), topic: answer('promotion') }, 1)
  tallyLabels(byQuestion, { is_spam: answer('yes'), topic: answer('promotion') }, 2)
  t.same(byQuestion.get('is_spam')?.get('yes'), { rows: 2, states: 1, squares: 4 })
  t.same([...byQuestion.get('topic')!.keys()], ['promotion'])
})

t.test("a state's rows counted at once add up as the same rows counted one by one", async (t) => {
  const once = new Map<string, LabelTally>()
  const byRow = new Map<string, LabelTally>()
  for (const [label, m] of [
    ['yes', 3],
    ['no', 1],
    ['yes', 2],
  ] as const) {
    tallyLabel(once, label, m, m)
    for (let k = 1; k <= m; k++) tallyLabel(byRow, label, k)
  }
  t.same(once, byRow)
  t.same(once.get('yes'), { rows: 5, states: 2, squares: 9 + 4 })
})
