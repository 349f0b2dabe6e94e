import t from 'tap'
import {
  budget,
  compareQuestion,
  compareRank,
  discordantOrder,
  verdictOf,
  type ComparedRow,
} from '../../../src/core/compare/compare.ts'
import { mcnemarExact } from '../../../src/core/stats/mcnemar.ts'

const rows = (pairs: readonly [string, string, number][]): ComparedRow[] => {
  let i = 0
  return pairs.flatMap(([live, candidate, n]) =>
    Array.from({ length: n }, () => ({ stateHash: (i++).toString(16).padStart(16, '0'), live, candidate })),
  )
}

t.test('rows, the discordant share and the flips by label pair need no review', async (t) => {
  const c = compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: rows([
      ['yes', 'yes', 80],
      ['no', 'yes', 15],
      ['yes', 'no', 5],
    ]),
    truth: new Map(),
    margin: 0.01,
    changes: ['question'],
  })
  t.match(c, {
    rows: 100,
    discordant: 0.2,
    discordant_rows: 20,
    reviewed: 0,
    paired: null,
    difference: null,
    interval: null,
    method: null,
    verdict: 'not enough evidence',
  })
  t.same(c.flips, [
    { live: 'no', candidate: 'yes', rows: 15 },
    { live: 'yes', candidate: 'no', rows: 5 },
  ])
  t.equal(c.reviews_needed, 20, 'the budget, at most every discordant row')
  t.equal(
    c.next,
    discordantOrder(
      'spam',
      'is_spam',
      rows([
        ['yes', 'yes', 80],
        ['no', 'yes', 15],
        ['yes', 'no', 5],
      ]),
    )[0].stateHash,
    'the first row of the review order',
  )
})

t.test("the review order is a hash of its own, not the queue's", async (t) => {
  t.not(compareRank('spam', 'is_spam', 'a'.repeat(16)), compareRank('other', 'is_spam', 'a'.repeat(16)))
  const order = discordantOrder('spam', 'is_spam', rows([['no', 'yes', 30]]))
  t.same(
    order.map((r) => compareRank('spam', 'is_spam', r.stateHash)),
    order.map((r) => compareRank('spam', 'is_spam', r.stateHash)).sort((a, b) => a - b),
  )
})

t.test('reviewed discordant rows in order give the difference, scaled by the discordant share', async (t) => {
  const all = rows([
    ['yes', 'yes', 900],
    ['no', 'yes', 100],
  ])
  const order = discordantOrder('spam', 'is_spam', all)
  // The first 60 in order reviewed: the candidate's yes right on 45, the live no on 15.
  const truth = new Map(order.slice(0, 60).map((r, i) => [r.stateHash, [i < 45 ? 'yes' : 'no']] as const))
  const c = compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: all,
    truth,
    margin: 0.01,
    changes: ['question'],
  })
  t.equal(c.method, 'discordant rows')
  t.equal(c.reviewed, 60)
  t.ok(Math.abs(c.difference! - (0.1 * (45 - 15)) / 60) < 1e-12, 'D · (b − c)/m')
  t.ok(c.interval![0] > 0, 'the candidate is better, with 95% confidence')
  t.ok(c.p_value! < 0.05)
  t.equal(c.verdict, 'better')
  t.equal(c.rows_difference, null, 'a sample of the discordant rows: the rows themselves are not known')
})

t.test(
  'every discordant row known: the difference on these rows is exact, the interval is for the traffic they sample',
  async (t) => {
    const all = rows([
      ['yes', 'yes', 900],
      ['no', 'yes', 100],
    ])
    const order = discordantOrder('spam', 'is_spam', all)
    const census = new Map(order.map((r) => [r.stateHash, ['yes']] as const))
    const known = compareQuestion({
      judgment: 'spam',
      question: 'is_spam',
      rows: all,
      truth: census,
      margin: 0.01,
      changes: ['question'],
    })
    t.equal(known.rows_difference, 0.1, 'the candidate wins every one of the 100 discordant rows of 1,000')
    t.equal(known.difference, 0.1)
    t.ok(
      known.interval![0] < 0.1 && known.interval![1] > 0.1,
      `the traffic's interval ${known.interval} holds the point, not collapsed to it`,
    )
    t.equal(known.reviews_needed, 0)
    t.equal(known.verdict, 'better')
    // Two discordant rows of 100, both won by the candidate: exact on the rows, but no evidence about traffic.
    const two = rows([
      ['yes', 'yes', 98],
      ['no', 'yes', 2],
    ])
    const both = compareQuestion({
      judgment: 'spam',
      question: 'is_spam',
      rows: two,
      truth: new Map(two.slice(98).map((r) => [r.stateHash, ['yes']] as const)),
      margin: 0.01,
      changes: ['question'],
    })
    t.equal(both.rows_difference, 0.02)
    t.equal(both.p_value, 0.5, "McNemar's exact p on 2 and 0")
    t.ok(both.interval![0] < 0, `the interval ${both.interval} holds 0`)
    t.not(both.verdict, 'better')
  },
)

t.test('two reviewed discordant rows, both won by the candidate, are not enough to call it better', async (t) => {
  // The case of a gate that passed on noise: Newcombe's interval on the discordant rows alone was [0.0019, 0.0267].
  const all = rows([
    ['yes', 'yes', 900],
    ['no', 'yes', 100],
  ])
  const order = discordantOrder('spam', 'is_spam', all)
  const truth = new Map(order.slice(0, 2).map((r) => [r.stateHash, ['yes']] as const))
  const c = compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: all,
    truth,
    margin: 0.01,
    changes: ['question'],
  })
  t.equal(c.reviewed, 2)
  t.equal(c.p_value, 0.5)
  t.ok(c.interval![0] < 0 && c.interval![1] > 0, `the interval ${c.interval} holds 0`)
  t.equal(c.verdict, 'not enough evidence')
  for (const m of [3, 4, 5]) {
    const more = compareQuestion({
      judgment: 'spam',
      question: 'is_spam',
      rows: all,
      truth: new Map(order.slice(0, m).map((r) => [r.stateHash, ['yes']] as const)),
      margin: 0.01,
      changes: ['question'],
    })
    t.not(more.verdict, 'better', `${m} of ${m} won: McNemar's p is ${more.p_value}`)
  }
  const six = compareQuestion({
    judgment: 'spam',
    question: 'is_spam',
    rows: all,
    truth: new Map(order.slice(0, 6).map((r) => [r.stateHash, ['yes']] as const)),
    margin: 0.01,
    changes: ['question'],
  })
  t.equal(six.verdict, 'better', "6 of 6 won: McNemar's p = 0.031 and the interval leaves 0")
})

t.test('a tie on a discordant row (neither spec right) scores a half', async (t) => {
  const all = rows([['a', 'b', 40]])
  const order = discordantOrder('spam', 'topic', all)
  // 20 reviewed: the candidate right on 10, neither right on 10.
  const truth = new Map(order.slice(0, 20).map((r, i) => [r.stateHash, [i < 10 ? 'b' : 'c']] as const))
  const c = compareQuestion({
    judgment: 'spam',
    question: 'topic',
    rows: all,
    truth,
    margin: 0.01,
    changes: ['question'],
  })
  t.equal(c.difference, 0.5, 'every row differs; 10 wins of 20 reviewed')
  t.equal(c.p_value, mcnemarExact(10, 0))
  t.ok(c.interval![0] > 0, `the interval ${c.interval} leaves 0`)
})

t.test(
  'a row reviewed out of order waits for the rows before it; without a sample the paired rows are used',
  async (t) => {
    const all = rows([
      ['yes', 'yes', 50],
      ['no', 'yes', 50],
    ])
    const order = discordantOrder('spam', 'is_spam', all)
    const truth = new Map([
      [order[1].stateHash, ['yes']],
      [all[0].stateHash, ['yes']],
    ] as const)
    const c = compareQuestion({
      judgment: 'spam',
      question: 'is_spam',
      rows: all,
      truth,
      margin: 0.01,
      changes: ['question'],
    })
    t.equal(c.reviewed, 0, 'the first row of the order is not reviewed')
    t.equal(c.method, 'paired rows')
    t.match(c.paired, { rows: 2 })
  },
)

t.test('the budget brings D·z/√m to the margin; the verdict reads the interval and the budget', async (t) => {
  t.equal(budget(0.1, 2000, 0.01), 385)
  t.equal(budget(0.1, 100, 0.01), 100, 'never more than every discordant row')
  t.equal(budget(0, 0, 0.01), 0)
  t.equal(verdictOf(null, 0, null), 'not enough evidence')
  t.equal(verdictOf([0.01, 0.05], 10, 0.01), 'better')
  t.equal(verdictOf([-0.05, -0.01], 10, 0.01), 'worse')
  t.equal(
    verdictOf([0.01, 0.05], 10, 0.2),
    'not enough evidence',
    'an interval that leaves 0 is not enough without a p below 0.05',
  )
  t.equal(verdictOf([0.01, 0.05], 0, 0.2), 'no difference shown')
  t.equal(verdictOf([0.01, 0.05], 0, null), 'no difference shown')
  t.equal(verdictOf([-0.01, 0.01], 0, 1), 'no difference shown')
  t.equal(verdictOf([-0.01, 0.01], 3, 1), 'not enough evidence')
})

t.test(
  'rows compared and none differing: exactly as accurate on them, within the share that may differ in traffic',
  async (t) => {
    const c = compareQuestion({
      judgment: 'spam',
      question: 'topic',
      rows: rows([['a', 'a', 40]]),
      truth: new Map(),
      margin: 0.01,
      changes: ['question'],
    })
    t.match(c, {
      rows: 40,
      discordant: 0,
      difference: 0,
      rows_difference: 0,
      p_value: 1,
      method: 'discordant rows',
      verdict: 'no difference shown',
      reviews_needed: 0,
    })
    // 0 of 40 differ: in traffic at most 8.8% may (the exact upper end), so the difference is within ±8.8 points.
    t.ok(Math.abs(c.interval![1] - 0.0880973) < 1e-6 && c.interval![0] === -c.interval![1], `${c.interval}`)
  },
)

t.test('a question both specs ask alike is unchanged: exactly 0, nothing to estimate or review', async (t) => {
  const c = compareQuestion({
    judgment: 'spam',
    question: 'topic',
    rows: rows([['a', 'a', 40]]),
    truth: new Map([['0000000000000000', ['a']]]),
    margin: 0.01,
    changes: [],
  })
  t.match(c, {
    changed: false,
    changes: [],
    rows: 40,
    discordant: 0,
    difference: 0,
    rows_difference: 0,
    p_value: null,
    method: null,
    verdict: 'unchanged',
    reviews_needed: 0,
    next: null,
  })
  t.same(c.interval, [0, 0], 'the same answers on every row to come, not only on these')
  const changed = compareQuestion({
    judgment: 'spam',
    question: 'topic',
    rows: rows([['a', 'a', 40]]),
    truth: new Map(),
    margin: 0.01,
    changes: ['model', 'store'],
  })
  t.match(changed, { changed: true, changes: ['model', 'store'], verdict: 'no difference shown' })
})
