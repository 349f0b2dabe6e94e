import t from 'tap'
import { raterFigures, ratedUnits } from '../../../src/core/agreement/people-raters.ts'
import { standingReviews } from '../../../src/core/review/retraction.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'

const verdict = (reviewer: string, hash: string, labels: string[], more: Partial<VerdictRecord> = {}) => ({
  type: 'verdict' as const,
  record: {
    reviewed_at: '2026-03-01T10:00:00.000',
    reviewer,
    judgment: 'spam',
    question: 'level',
    state_hash: hash,
    kind: 'spot_check' as const,
    verdict: 'labeled' as const,
    labels,
    model_label: 'low',
    key_label: null,
    state: {},
    stratum: 'confident' as const,
    rank: 1,
    ...more,
  },
})

t.test("each row is a unit of its reviewers' latest first labels; a verdict without a label is missing", async (t) => {
  const reviews = standingReviews([
    verdict('ann', 'r1', ['low']),
    verdict('bob', 'r1', ['high']),
    verdict('ann', 'r1', ['medium']),
    verdict('cy', 'r1', [], { verdict: 'ambiguous' }),
    verdict('ann', 'r2', ['high']),
    verdict('ann', 'r3', ['low'], { question: 'other' }),
  ])
  t.same(ratedUnits(reviews, 'spam', 'level'), [['medium', 'high'], ['high']])
})

t.test('α is ordinal for a scale and nominal otherwise; AC1 and α carry intervals', async (t) => {
  const units = [
    ...Array.from({ length: 12 }, () => ['low', 'low', 'low']),
    ...Array.from({ length: 10 }, () => ['medium', 'medium']),
    ...Array.from({ length: 8 }, () => ['high', 'medium', 'high']),
    ...Array.from({ length: 5 }, () => ['low']),
  ]
  const scale = raterFigures(units, { type: 'scale', labels: ['low', 'medium', 'high'] })
  t.equal(scale.alpha_level, 'ordinal')
  t.ok(scale.alpha_interval![0] < scale.alpha! && scale.alpha! < scale.alpha_interval![1])
  t.ok(scale.ac1_interval![0] < scale.ac1! && scale.ac1! < scale.ac1_interval![1])
  const choice = raterFigures(units, { type: 'choice', labels: ['low', 'medium', 'high'] })
  t.equal(choice.alpha_level, 'nominal')
  t.ok(choice.alpha! < scale.alpha!, 'near misses count as half right on a scale')
  t.same(raterFigures([['low']], { type: 'yes_no', labels: ['yes', 'no'] }), {
    ac1: null,
    ac1_interval: null,
    alpha: null,
    alpha_interval: null,
    alpha_level: 'nominal',
  })
})
