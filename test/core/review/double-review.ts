import t from 'tap'
import {
  byReviewer,
  chosenForSecond,
  countingVerdict,
  countingVerdicts,
  offeredAgain,
  sameCall,
  type SecondOffer,
} from '../../../src/core/review/double-review.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'

function verdict(
  reviewer: string,
  call: VerdictRecord['verdict'],
  labels: string[],
  over: Partial<VerdictRecord> = {},
): VerdictRecord {
  return {
    reviewed_at: `2026-01-01T00:00:0${reviewer.length}`,
    reviewer,
    judgment: 'spam',
    question: 'is_spam',
    state_hash: 'a',
    kind: 'spot_check',
    verdict: call,
    labels,
    model_label: 'no',
    key_label: null,
    state: { message: 'hi' },
    stratum: 'confident',
    rank: 1,
    ...over,
  }
}

const yes = (who: string) => verdict(who, 'labeled', ['yes'])
const no = (who: string) => verdict(who, 'confirmed', ['no'])

t.test(
  'the rows chosen for a second review are a fixed share of the rows, drawn apart from the sample order',
  async (t) => {
    const hashes = Array.from({ length: 5_000 }, (_, i) => i.toString(16).padStart(16, '0'))
    const chosen = hashes.filter((h) => chosenForSecond('spam', 'is_spam', h, 0.1))
    // 5,000 draws of a share of 0.1 fall within 0.017 of it (four standard errors).
    t.ok(Math.abs(chosen.length / hashes.length - 0.1) < 0.017, `${chosen.length} of 5,000 chosen at a share of 0.1`)
    t.same(
      hashes.filter((h) => chosenForSecond('spam', 'is_spam', h, 0.1)),
      chosen,
      'the same rows every time',
    )
    t.notSame(
      hashes.filter((h) => chosenForSecond('spam', 'topic', h, 0.1)),
      chosen,
      'another question draws other rows',
    )
    t.equal(hashes.filter((h) => chosenForSecond('spam', 'is_spam', h, 0)).length, 0, '0 turns it off')
    t.equal(hashes.filter((h) => chosenForSecond('spam', 'is_spam', h, 1)).length, hashes.length, '1 takes every row')
    t.ok(
      chosen.every((h) => chosenForSecond('spam', 'is_spam', h, 0.2)),
      'a larger share keeps the rows of a smaller one',
    )
  },
)

t.test('two verdicts say the same when they share a label, or save none and are the same verdict', async (t) => {
  t.ok(sameCall(yes('a'), verdict('b', 'model_right', ['yes'])))
  t.ok(sameCall(verdict('a', 'both_ok', ['yes', 'no']), no('b')), 'both acceptable agrees with either label')
  t.notOk(sameCall(yes('a'), no('b')))
  t.ok(sameCall(verdict('a', 'ambiguous', []), verdict('b', 'ambiguous', [])))
  t.notOk(sameCall(verdict('a', 'ambiguous', []), verdict('b', 'needs_context', [])))
  t.notOk(sameCall(verdict('a', 'ambiguous', []), no('b')), 'no label and a label differ')
})

t.test("the first reviewer's verdict counts unless a third settles a difference the other way", async (t) => {
  t.equal(countingVerdict([no('ann')]).reviewer, 'ann')
  t.equal(countingVerdict([no('ann'), no('bob')]).reviewer, 'ann', 'agreeing: the first')
  t.equal(countingVerdict([no('ann'), yes('bob')]).reviewer, 'ann', 'differing, unsettled: still the first')
  t.equal(countingVerdict([no('ann'), yes('bob'), yes('cy')]).reviewer, 'bob', 'the third sides with the second')
  t.equal(countingVerdict([no('ann'), yes('bob'), no('cy')]).reviewer, 'ann', 'the third sides with the first')
  t.equal(
    countingVerdict([no('ann'), yes('bob'), verdict('cy', 'ambiguous', [])]).reviewer,
    'ann',
    'the third sides with neither: the first',
  )
  const again = yes('ann')
  t.equal(countingVerdict([no('ann'), again]), again, "one reviewer's later verdict stands over their earlier one")
  t.same(
    byReviewer([no('ann'), yes('bob'), again]).map((v) => [v.reviewer, v.labels[0]]),
    [
      ['ann', 'yes'],
      ['bob', 'yes'],
    ],
  )
  t.same(
    [
      ...countingVerdicts(
        new Map([
          ['k', [no('ann'), yes('bob'), yes('cy')]],
          ['empty', []],
        ]),
      ).keys(),
    ],
    ['k'],
  )
})

t.test('a reviewed row is offered again only to others, while it awaits a second or a settling verdict', async (t) => {
  const share = 1
  const offer = (reviewer: string, over: Partial<SecondOffer> = {}): SecondOffer => ({
    judgment: 'spam',
    question: 'is_spam',
    stateHash: 'a',
    kind: 'spot_check',
    share,
    reviewer,
    ...over,
  })
  t.ok(offeredAgain([], offer('ann')), 'an unreviewed row is open to anyone')
  t.ok(offeredAgain([no('ann')], offer('bob')))
  t.notOk(offeredAgain([no('ann')], offer('ann')), 'never to its reviewer')
  t.notOk(offeredAgain([no('ann'), no('bob')], offer('cy')), 'two that agree: done')
  t.ok(offeredAgain([no('ann'), yes('bob')], offer('cy')), 'two that differ: a third settles them')
  t.notOk(offeredAgain([no('ann'), yes('bob')], offer('bob')))
  t.notOk(offeredAgain([no('ann'), yes('bob'), yes('cy')], offer('dan')), 'three: settled')
  t.notOk(offeredAgain([no('ann')], offer('bob', { share: 0 })), 'double_review 0: never')
  t.notOk(
    offeredAgain([no('ann')], offer('bob', { kind: 'disagreement' })),
    'a disagreement with the key is not a random-sample row',
  )
  t.notOk(
    offeredAgain([verdict('ann', 'model_right', ['no'], { kind: 'disagreement' })], offer('bob')),
    'nor a row first reviewed as one',
  )
  t.ok(offeredAgain([no('ann')], offer('bob', { kind: 'unsure' })), 'unsure rows are random-sample rows too')
  const hashes = Array.from({ length: 200 }, (_, i) => i.toString(16).padStart(16, '0'))
  const again = hashes.filter((h) => offeredAgain([no('ann')], offer('bob', { stateHash: h, share: 0.1 })))
  t.same(
    again,
    hashes.filter((h) => chosenForSecond('spam', 'is_spam', h, 0.1)),
    'only the rows chosen for a second review',
  )
})
