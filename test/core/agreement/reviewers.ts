import t from 'tap'
import { FLAG_MIN_ROWS, reviewerAgreement } from '../../../src/core/agreement/reviewers.ts'
import type { ReviewedPair } from '../../../src/core/agreement/people.ts'

const pairs = (n: number, first: string, second: string, agree: number): ReviewedPair[] =>
  Array.from({ length: n }, (_, i) => ({
    state_hash: `${first}${second}${i}`,
    first: { reviewer: first, labels: ['yes'] },
    second: { reviewer: second, labels: [i < agree ? 'yes' : 'no'] },
  }))

t.test("each reviewer's agreement with the others over the rows they share", async (t) => {
  const result = reviewerAgreement([
    ...pairs(40, 'ann', 'bob', 36),
    ...pairs(40, 'ann', 'cal', 20),
    ...pairs(40, 'bob', 'cal', 22),
  ])
  t.same(Object.keys(result), ['ann', 'bob', 'cal'])
  t.equal(result.ann.rows, 80)
  t.equal(result.ann.agreement, 56 / 80)
  t.equal(result.cal.agreement, 42 / 80)
  t.ok(result.cal.interval[0] < 42 / 80 && 42 / 80 < result.cal.interval[1])
})

t.test('the reviewer far below the others among themselves is flagged, and only they', async (t) => {
  const result = reviewerAgreement([
    ...pairs(40, 'ann', 'bob', 38),
    ...pairs(40, 'ann', 'cal', 20),
    ...pairs(40, 'bob', 'cal', 22),
  ])
  t.same(
    Object.entries(result)
      .filter(([, r]) => r.flagged)
      .map(([name]) => name),
    ['cal'],
  )
})

t.test('no one is flagged with two reviewers, nor on fewer than FLAG_MIN_ROWS rows', async (t) => {
  t.notOk(
    Object.values(reviewerAgreement(pairs(100, 'ann', 'bob', 50))).some((r) => r.flagged),
    'two reviewers: whose error it is takes a third',
  )
  const few = reviewerAgreement([...pairs(40, 'ann', 'bob', 40), ...pairs(FLAG_MIN_ROWS - 1, 'cal', 'ann', 0)])
  t.equal(few.cal.rows, FLAG_MIN_ROWS - 1)
  t.equal(few.cal.flagged, false)
  const enough = reviewerAgreement([...pairs(40, 'ann', 'bob', 40), ...pairs(FLAG_MIN_ROWS, 'cal', 'ann', 0)])
  t.equal(enough.cal.flagged, true)
})

t.test('pairs without a label on both sides are left out', async (t) => {
  const unlabelled: ReviewedPair = {
    state_hash: 'x',
    first: { reviewer: 'dee', labels: [] },
    second: { reviewer: 'ann', labels: ['yes'] },
  }
  t.same(Object.keys(reviewerAgreement([unlabelled, ...pairs(2, 'ann', 'bob', 2)])), ['ann', 'bob'])
})
