import t from 'tap'
import { budget, compareQuestion, compareRank, discordantOrder, verdictOf, type ComparedRow } from '../../../src/core/compare/compare.ts'

const rows = (pairs: readonly [string, string, number][]): ComparedRow[] => {
  let i = 0
  return pairs.flatMap(([live, candidate, n]) => Array.from({ length: n }, () => ({ stateHash: (i++).toString(16).padStart(16, '0'), live, candidate })))
}

t.test('rows, the discordant share and the flips by label pair need no review', async (t) => {
  const c = compareQuestion({ judgment: 'spam', question: 'is_spam', rows: rows([['yes', 'yes', 80], ['no', 'yes', 15], ['yes', 'no', 5]]), truth: new Map(), margin: 0.01 })
  t.match(c, { rows: 100, discordant: 0.2, discordant_rows: 20, reviewed: 0, paired: null, difference: null, interval: null, method: null, verdict: 'not enough evidence' })
  t.same(c.flips, [{ live: 'no', candidate: 'yes', rows: 15 }, { live: 'yes', candidate: 'no', rows: 5 }])
  t.equal(c.reviews_needed, 20, 'the budget, at most every discordant row')
  t.equal(c.next, discordantOrder('spam', 'is_spam', rows([['yes', 'yes', 80], ['no', 'yes', 15], ['yes', 'no', 5]]))[0].stateHash, 'the first row of the review order')
})

t.test('the review order is a hash of its own, not the queue\'s', async (t) => {
  t.not(compareRank('spam', 'is_spam', 'a'.repeat(16)), compareRank('other', 'is_spam', 'a'.repeat(16)))
  const order = discordantOrder('spam', 'is_spam', rows([['no', 'yes', 30]]))
  t.same(order.map((r) => compareRank('spam', 'is_spam', r.stateHash)), order.map((r) => compareRank('spam', 'is_spam', r.stateHash)).sort((a, b) => a - b))
})

t.test('reviewed discordant rows in order give the difference, scaled by the discordant share', async (t) => {
  const all = rows([['yes', 'yes', 900], ['no', 'yes', 100]])
  const order = discordantOrder('spam', 'is_spam', all)
  // The first 60 in order reviewed: the candidate's yes right on 45, the live no on 15.
  const truth = new Map(order.slice(0, 60).map((r, i) => [r.stateHash, [i < 45 ? 'yes' : 'no']] as const))
  const c = compareQuestion({ judgment: 'spam', question: 'is_spam', rows: all, truth, margin: 0.01 })
  t.equal(c.method, 'discordant rows')
  t.equal(c.reviewed, 60)
  t.ok(Math.abs(c.difference! - 0.1 * (45 - 15) / 60) < 1e-12, 'D · (b − c)/m')
  t.ok(c.interval![0] > 0, 'the candidate is better, with 95% confidence')
  t.equal(c.verdict, 'better')
  const census = new Map(order.map((r) => [r.stateHash, ['yes']] as const))
  const known = compareQuestion({ judgment: 'spam', question: 'is_spam', rows: all, truth: census, margin: 0.01 })
  t.same(known.interval, [0.1, 0.1], 'every discordant row reviewed: the difference is known')
  t.equal(known.reviews_needed, 0)
})

t.test('a row reviewed out of order waits for the rows before it; without a sample the paired rows are used', async (t) => {
  const all = rows([['yes', 'yes', 50], ['no', 'yes', 50]])
  const order = discordantOrder('spam', 'is_spam', all)
  const truth = new Map([[order[1].stateHash, ['yes']], [all[0].stateHash, ['yes']]] as const)
  const c = compareQuestion({ judgment: 'spam', question: 'is_spam', rows: all, truth, margin: 0.01 })
  t.equal(c.reviewed, 0, 'the first row of the order is not reviewed')
  t.equal(c.method, 'paired rows')
  t.match(c.paired, { rows: 2 })
})

t.test('the budget brings D·z/√m to the margin; the verdict reads the interval and the budget', async (t) => {
  t.equal(budget(0.1, 2000, 0.01), 385)
  t.equal(budget(0.1, 100, 0.01), 100, 'never more than every discordant row')
  t.equal(budget(0, 0, 0.01), 0)
  t.equal(verdictOf(null, 0), 'not enough evidence')
  t.equal(verdictOf([0.01, 0.05], 10), 'better')
  t.equal(verdictOf([-0.05, -0.01], 10), 'worse')
  t.equal(verdictOf([-0.01, 0.01], 0), 'no difference shown')
  t.equal(verdictOf([-0.01, 0.01], 3), 'not enough evidence')
})

t.test('rows compared and none differing: exactly as accurate, no review needed', async (t) => {
  const c = compareQuestion({ judgment: 'spam', question: 'topic', rows: rows([['a', 'a', 40]]), truth: new Map(), margin: 0.01 })
  t.match(c, { rows: 40, discordant: 0, difference: 0, interval: [0, 0], p_value: 1, method: 'discordant rows', verdict: 'no difference shown', reviews_needed: 0 })
})
