import t from 'tap'
import { standingReviews } from '../../../src/core/review/retraction.ts'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import type { ReviewLine } from '../../../src/core/review/retraction.ts'
import type { SampledRow, StratumSample } from '../../../src/core/review/stratum-sample.ts'
import type { Stratum } from '../../../src/core/review/strata.ts'
import type { KeyRow } from '../../../src/core/review/verdicts.ts'
import type { Question } from '../../../src/core/types.ts'
import { AGREEMENT_METHOD, questionAgreement } from '../../../src/core/agreement/agreement.ts'

const question: Question = {
  name: 'is_spam',
  ask: 'Spam?',
  type: 'yes_no',
  labels: ['yes', 'no'],
  descriptions: [null, null],
  fingerprint: 'f',
}
const rows = (n: number, stratum: Stratum, label: string, truth: string): SampledRow[] =>
  Array.from({ length: n }, (_, i) => ({
    stateHash: `${stratum}${label}${truth}${i}`,
    stratum,
    label,
    p: 0.9,
    margin: 0.8,
    truth: [truth],
    correct: label === truth,
  }))
const sample = (stratum: Stratum, size: number, list: SampledRow[]): StratumSample => ({
  stratum,
  size,
  sampled: list.length,
  rows: list,
  needs_context: 0,
  ambiguous: 0,
  outside: 0,
  next: null,
  needed: 0,
})
const sampleDesign: QuestionSample = {
  question,
  strata: {
    split: sample('split', 0, []),
    unsure: sample('unsure', 100, [
      ...rows(6, 'unsure', 'yes', 'yes'),
      ...rows(4, 'unsure', 'yes', 'no'),
      ...rows(6, 'unsure', 'no', 'no'),
    ]),
    confident: sample('confident', 900, [
      ...rows(12, 'confident', 'yes', 'yes'),
      ...rows(17, 'confident', 'no', 'no'),
      ...rows(1, 'confident', 'no', 'yes'),
    ]),
  },
}
const verdict = (reviewer: string, hash: string, labels: string[], judgment = 'spam'): ReviewLine => ({
  type: 'verdict',
  record: {
    reviewed_at: '2026-03-01T10:00:00.000',
    reviewer,
    judgment,
    question: 'is_spam',
    state_hash: hash,
    kind: 'disagreement',
    verdict: 'labeled',
    labels,
    model_label: 'no',
    key_label: 'yes',
    state: {},
    stratum: 'confident',
    rank: null,
  },
})
const key = new Map<string, KeyRow>([
  ['k1', { stateHash: 'k1', state: {}, labels: { is_spam: 'yes' }, where: 'key.csv:2' }],
])
const lines = [
  verdict('ann', 'k1', ['no']),
  verdict('bob', 'k1', ['no']),
  verdict('ann', 'k2', ['yes']),
  verdict('bob', 'k2', ['no']),
  verdict('cal', 'k3', ['yes'], 'other'),
]

t.test(
  "one question's agreement: the model against people, people against each other, the key against people",
  async (t) => {
    const agreement = questionAgreement({ judgment: 'spam', sampleDesign, reviews: standingReviews(lines), key })
    t.ok(agreement.kappa !== null && agreement.raw_agreement !== null, 'κ with raw agreement beside it')
    t.same(Object.keys(agreement.per_label), ['yes', 'no'])
    t.same(agreement.people, {
      rows: 2,
      unlabelled: 0,
      raw_agreement: 0.5,
      kappa: 0,
      kappa_interval: agreement.people.kappa_interval,
      reason: null,
      // Rows k1 (no, no) and k2 (yes, no): p_a = 1/2, π_yes = 1/4, p_e = 2·(1/4)(3/4) = 3/8, AC1 = (1/8)/(5/8).
      ac1: 0.2,
      ac1_interval: agreement.people.ac1_interval,
      // Coincidences: no–no 2, yes–no 1, no–yes 1; n_no = 3, n_yes = 1: α = 1 − 3·2/(2·3·1) = 0.
      alpha: 0,
      alpha_interval: agreement.people.alpha_interval,
      alpha_level: 'nominal',
    })
    t.same(Object.keys(agreement.reviewers), ['ann', 'bob'], 'a reviewer of another judgment is not counted')
    t.same(agreement.reviewers.ann, {
      rows: 2,
      agreement: 0.5,
      interval: agreement.reviewers.ann.interval,
      flagged: false,
    })
    t.same(
      agreement.key_error,
      { point: 1, interval: agreement.key_error!.interval, rows: 1, wrong: 1 },
      "bob's standing verdict says the key is wrong",
    )
    t.equal(agreement.method, AGREEMENT_METHOD)
  },
)

t.test('the figures are plain data: served as JSON they read back the same', async (t) => {
  const agreement = questionAgreement({ judgment: 'spam', sampleDesign, reviews: new Map(), key: new Map() })
  t.same(JSON.parse(JSON.stringify(agreement)), agreement)
  t.equal(agreement.key_error, null)
  t.equal(agreement.people.reason, 'no row has verdicts with a label by two reviewers')
  t.same(agreement.reviewers, {})
})
