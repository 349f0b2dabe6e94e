import t from 'tap'
import { standingReviews } from '../../../src/core/review/retraction.ts'
import type { ReviewLine } from '../../../src/core/review/retraction.ts'
import {
  agrees,
  labelPair,
  labelled,
  peopleAgreement,
  reviewedPairs,
  type ReviewedPair,
} from '../../../src/core/agreement/people.ts'

const verdict = (reviewer: string, hash: string, labels: string[], question = 'is_spam'): ReviewLine => ({
  type: 'verdict',
  record: {
    reviewed_at: '2026-03-01T10:00:00.000',
    reviewer,
    judgment: 'spam',
    question,
    state_hash: hash,
    kind: 'spot_check',
    verdict: labels.length === 0 ? 'ambiguous' : 'labeled',
    labels,
    model_label: 'yes',
    key_label: null,
    state: {},
    stratum: 'confident',
    rank: 1,
  },
})
const retraction = (hash: string): ReviewLine => ({
  type: 'retraction',
  judgment: 'spam',
  question: 'is_spam',
  state_hash: hash,
})
const pair = (first: string[], second: string[]): ReviewedPair => ({
  state_hash: 'h',
  first: { reviewer: 'ann', labels: first },
  second: { reviewer: 'bob', labels: second },
})

t.test(
  'a row reviewed by two people gives their latest standing verdicts, in the order they first reviewed it',
  async (t) => {
    const lines = [
      verdict('bob', 'r1', ['no']),
      verdict('ann', 'r1', ['yes']),
      verdict('bob', 'r1', ['yes']),
      verdict('ann', 'r2', ['yes']),
      verdict('ann', 'r2', ['no']),
      verdict('ann', 'r3', ['yes']),
      verdict('bob', 'r3', ['no']),
      retraction('r3'),
      verdict('ann', 'r4', ['yes']),
      verdict('bob', 'r4', ['yes'], 'topic'),
      verdict('ann', 'r5', ['no']),
      verdict('bob', 'r5', []),
      verdict('cat', 'r5', ['no']),
    ]
    t.same(
      reviewedPairs(standingReviews(lines), 'spam', 'is_spam'),
      [
        { state_hash: 'r1', first: { reviewer: 'bob', labels: ['yes'] }, second: { reviewer: 'ann', labels: ['yes'] } },
        { state_hash: 'r5', first: { reviewer: 'ann', labels: ['no'] }, second: { reviewer: 'bob', labels: [] } },
      ],
      'one reviewer twice is no pair; a retraction withdraws the second verdict; other questions and judgments are apart; a third reviewer is left out',
    )
    t.same(reviewedPairs(standingReviews(lines), 'other', 'is_spam'), [])
  },
)

t.test('two verdicts agree when they share a label; κ counts the shared label on both sides', async (t) => {
  t.ok(agrees(pair(['no', 'yes'], ['yes'])), 'both acceptable agrees with either label')
  t.notOk(agrees(pair(['no'], ['yes'])))
  t.same(labelPair(pair(['no', 'yes'], ['yes'])), { a: 'yes', b: 'yes' })
  t.same(labelPair(pair(['no'], ['yes'])), { a: 'no', b: 'yes' })
  t.notOk(labelled(pair([], ['yes'])))
})

t.test('raw agreement and κ between people over the labelled pairs', async (t) => {
  const pairs = [
    ...Array.from({ length: 20 }, () => pair(['yes'], ['yes'])),
    ...Array.from({ length: 5 }, () => pair(['yes'], ['no'])),
    ...Array.from({ length: 10 }, () => pair(['no'], ['yes'])),
    ...Array.from({ length: 15 }, () => pair(['no'], ['no'])),
    pair([], ['no']),
  ]
  const people = peopleAgreement(pairs)
  t.equal(people.rows, 50)
  t.equal(people.unlabelled, 1)
  t.equal(people.raw_agreement, 0.7)
  t.ok(Math.abs(people.kappa! - 0.4) < 1e-12)
  t.ok(people.kappa_interval![0] < 0.4 && 0.4 < people.kappa_interval![1])
  t.equal(people.reason, null)
})

t.test('no rows, or one label all round: raw agreement where there is one, κ null with its reason', async (t) => {
  t.same(peopleAgreement([pair([], [])]), {
    rows: 0,
    unlabelled: 1,
    raw_agreement: null,
    kappa: null,
    kappa_interval: null,
    reason: 'no row has verdicts with a label by two reviewers',
  })
  const same = peopleAgreement([pair(['yes'], ['yes']), pair(['yes'], ['yes'])])
  t.equal(same.raw_agreement, 1)
  t.equal(same.kappa, null)
  t.match(same.reason, /κ is undefined/)
})
