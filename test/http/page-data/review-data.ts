import t from 'tap'
import type { ReviewQueue } from '../../../src/app/review.ts'
import type { Card } from '../../../src/core/review/queue.ts'
import { verdictChoices, verdictKey, type Kind, type VerdictRecord } from '../../../src/core/review/verdicts.ts'
import { reviewData } from '../../../src/http/page-data/review-data.ts'
import type { ReviewTarget } from '../../../src/http/page-data/review-params.ts'
import { project, spec } from '../../helpers/specs.ts'

const judgment = spec()
const [isSpam] = judgment.questions

function card(kind: Kind, n: number): Card {
  return {
    judgment: 'spam',
    question: 'is_spam',
    stateHash: n.toString(16).padStart(16, '0'),
    kind,
    stratum: 'unsure',
    rank: n,
    state: { message: `m${n}` },
    modelLabel: 'yes',
    p: 0.55,
    margin: 0.1,
    top: [
      { label: 'yes', p: 0.55 },
      { label: 'no', p: 0.45 },
    ],
    keyLabel: kind === 'disagreement' ? 'no' : null,
    verdicts: verdictChoices(kind, isSpam, { modelLabel: 'yes', keyLabel: kind === 'disagreement' ? 'no' : null }),
  }
}

const verdict: VerdictRecord = {
  reviewed_at: '2026-03-01T09:00:00.000',
  reviewer: 'ann',
  judgment: 'spam',
  question: 'is_spam',
  state_hash: 'ffffffffffffffff',
  kind: 'unsure',
  verdict: 'labeled',
  labels: ['no'],
  model_label: 'yes',
  key_label: null,
  state: { message: 'x' },
  stratum: 'unsure',
  rank: 1,
}

const queue: ReviewQueue = {
  spec: judgment,
  offered: [card('disagreement', 1), ...Array.from({ length: 30 }, (_, i) => card('unsure', i + 2))],
  cards: [],
  model: 'm',
  left: {
    is_spam: { disagreement: 1, spot_check: 0, split: 0, unsure: 40 },
    topic: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
    urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
  },
  targets: {
    is_spam: { accuracy_target: null, reviews_needed: null },
    topic: { accuracy_target: null, reviews_needed: null },
    urgency: { accuracy_target: null, reviews_needed: null },
  },
  verdicts: new Map([[verdictKey('spam', 'is_spam', 'ffffffffffffffff'), verdict]]),
  reviews: new Map([[verdictKey('spam', 'is_spam', 'ffffffffffffffff'), [verdict]]]),
}

const target: ReviewTarget = {
  project: project(judgment),
  spec: judgment,
  spotChecks: 30,
  path: 'spam.judge.yaml',
  judgmentParam: null,
  reviewer: 'ann',
  filter: { kind: 'unsure', question: null, row: null },
  page: 2,
}

t.test(
  "the data of a page: the filtered page of cards in the API's words, the counts, the page and the progress",
  async (t) => {
    const data = reviewData(
      target,
      queue,
      { saved: null, undone: null },
      { signer: 'ann', viewer: 'ann' },
      '2026-03-01T10:00:00.000',
    )
    t.match(data, {
      path: 'spam.judge.yaml',
      judgment: 'spam',
      judgments: ['spam'],
      reviewer: 'ann',
      audit: 30,
      model: 'm',
      unsure_below: 0.2,
      has_key: false,
      filter: { kind: 'unsure' },
      left: { disagreement: 1, spot_check: 0, split: 0, unsure: 40 },
      progress: { reviewer: 'ann', day: '2026-03-01', reviewed: 1, left: 41 },
      page: { number: 2, pages: 2, size: 25, total: 40, first: 26 },
      saved: null,
      undone: null,
    })
    t.equal(data.cards.length, 5, 'rows 26 to 30 of the unsure rows read')
    t.same(data.cards[0], {
      question: 'is_spam',
      state_hash: card('unsure', 27).stateHash,
      kind: 'unsure',
      stratum: 'unsure',
      rank: 27,
      state: { message: 'm27' },
      model_label: 'yes',
      p: 0.55,
      margin: 0.1,
      top: [
        { label: 'yes', p: 0.55 },
        { label: 'no', p: 0.45 },
      ],
      key_label: null,
      label_under_check: 'yes',
      verdicts: card('unsure', 27).verdicts,
    })
    t.same(
      data.questions.map((q) => q.name),
      ['is_spam', 'topic', 'urgency'],
    )
    t.equal(JSON.stringify(JSON.parse(JSON.stringify(data))), JSON.stringify(data), 'plain JSON')
  },
)

t.test('the banner shows the standing verdict it names, in the words of its button', async (t) => {
  const ref = { question: 'is_spam', stateHash: 'ffffffffffffffff' }
  const saved = reviewData(
    target,
    queue,
    { saved: ref, undone: null },
    { signer: 'bob', viewer: 'bob' },
    '2026-03-01T10:00:00.000',
  )
  t.same(saved.saved, {
    question: 'is_spam',
    state_hash: 'ffffffffffffffff',
    verdict: 'labeled',
    labels: ['no'],
    text: 'it is no',
    reviewed_at: '2026-03-01T09:00:00.000',
    reviewer: 'ann',
  })
  t.equal(saved.progress.reviewed, 0, 'bob reviewed nothing')
  t.equal(
    reviewData(
      target,
      queue,
      { saved: { ...ref, stateHash: '0000000000000000' }, undone: null },
      { signer: 'ann', viewer: 'ann' },
      'x',
    ).saved,
    null,
    'a verdict that no longer stands',
  )
  const undone = reviewData(
    target,
    queue,
    { saved: null, undone: { ...ref, stateHash: '0000000000000000' } },
    { signer: 'ann', viewer: 'ann' },
    'x',
  ).undone
  t.same(undone, { question: 'is_spam', state_hash: '0000000000000000', standing: null })
})
