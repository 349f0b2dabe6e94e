import t from 'tap'
import { agreementOf } from '../helpers/agreement.ts'
import type { ScoredQuestion } from '../../src/app/review-data.ts'
import type { AccuracyEstimate, StratumFigure } from '../../src/core/review/estimate.ts'
import { METHOD } from '../../src/core/review/estimate.ts'
import {
  belowBar,
  confusionLines,
  estimateText,
  questionLines,
  scoresJson,
  targetText,
  testReport,
} from '../../src/cli/test-text.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

function stratum(
  stratum: 'unsure' | 'confident',
  size: number,
  counted: number,
  more: Partial<StratumFigure> = {},
): StratumFigure {
  return {
    stratum,
    size,
    weight: null,
    sampled: counted,
    counted,
    correct: counted,
    accuracy: counted ? 1 : null,
    needs_context: 0,
    ambiguous: 0,
    outside: 0,
    next: null,
    needed: 0,
    ...more,
  }
}

/** An estimate of `point` from 20 of 400 confident and 10 of 100 unsure answers; null point: not estimable. */
function estimate(point: number | null): AccuracyEstimate {
  const strata =
    point === null
      ? [stratum('unsure', 100, 0, { next: 'abcdef0123456789', needed: 1 }), stratum('confident', 400, 20)]
      : [stratum('unsure', 100, 10), stratum('confident', 400, 20)]
  return {
    estimable: point !== null,
    point,
    interval: point === null ? null : [point - 0.1, point + 0.05],
    method: METHOD,
    needed: point === null ? 1 : 0,
    strata,
    naive: { accuracy: 0.9, interval: [0.5, 0.9], counted: 10 },
  }
}

function score(correct: number, counted: number, more: Partial<ScoredQuestion> = {}): ScoredQuestion {
  return {
    counted,
    correct,
    accuracy: counted ? correct / counted : null,
    interval: counted ? [0.5, 0.9] : null,
    reviewed: 3,
    needs_context: 1,
    ambiguous: 2,
    pending: 4,
    confusion: {
      labels: ['yes', 'no'],
      counts: [
        [correct, 0],
        [counted - correct, 0],
      ],
    },
    estimate: estimate(null),
    agreement: agreementOf(null),
    target: { accuracy_target: null, reviews_needed: null },
    ...more,
  }
}

t.test('--json keeps the eight score fields of the brief, in order, and adds the estimate', async (t) => {
  const json = scoresJson(new Map([['spam', { is_spam: score(9, 10, { estimate: estimate(0.85) }) }]]))
  t.match(json, {
    spam: {
      is_spam: {
        counted: 10,
        correct: 9,
        accuracy: 0.9,
        interval: [0.5, 0.9],
        reviewed: 3,
        needs_context: 1,
        ambiguous: 2,
        pending: 4,
      },
    },
  })
  t.same(Object.keys(json.spam.is_spam), [
    'counted',
    'correct',
    'accuracy',
    'interval',
    'reviewed',
    'needs_context',
    'ambiguous',
    'pending',
    'estimate',
    'agreement',
    'accuracy_target',
    'reviews_needed',
  ])
  t.same(Object.keys(json.spam.is_spam.estimate as object), [
    'estimable',
    'point',
    'interval',
    'method',
    'needed',
    'strata',
    'naive',
  ])
  t.match(json.spam.is_spam.estimate, {
    estimable: true,
    point: 0.85,
    method: METHOD,
    naive: { accuracy: 0.9, counted: 10 },
  })
})

t.test(
  'min_accuracy is checked against the estimate when it is estimable, else against the pooled accuracy',
  async (t) => {
    const barred = spec(SPAM_YAML + 'min_accuracy: 0.9\n')
    t.same(belowBar(barred, { a: score(9, 10), b: score(8, 10), c: score(0, 0) }), [
      'spam.b: accuracy 80.0% is below min_accuracy 90.0%',
    ])
    t.same(
      belowBar(barred, {
        a: score(9, 10, { estimate: estimate(0.85) }),
        b: score(8, 10, { estimate: estimate(0.95) }),
      }),
      ['spam.a: estimate 85.0% is below min_accuracy 90.0%'],
    )
    t.same(belowBar(spec(), { b: score(0, 10) }), [], 'no min_accuracy, no bar')
  },
)

t.test('a question shows its estimate and its pooled accuracy, the bar beside the one checked', async (t) => {
  t.same(questionLines('is_spam', score(9, 10, { estimate: estimate(0.85) }), 0.9).slice(0, 3), [
    '  is_spam: estimate 85.0% over all 500 answers, 95% interval 75.0% to 90.0% (sampled 10 of 100 unsure, 20 of 400 confident); below min_accuracy 90.0%',
    '    pooled: accuracy 90.0% (9 of 10), 95% interval 50.0% to 90.0%',
    '    reviewed 3, context gap 1, ambiguous 2, pending 4',
  ])
  t.same(questionLines('is_spam', score(9, 10), 0.9).slice(0, 2), [
    '  is_spam: estimate not estimable yet: review 1 more row in rank order: unsure (next row abcdef0123456789)',
    '    pooled: accuracy 90.0% (9 of 10), 95% interval 50.0% to 90.0%; meets min_accuracy 90.0%',
  ])
  t.match(questionLines('is_spam', score(9, 10), null)[1], /95% interval 50\.0% to 90\.0%$/, 'no bar, no verdict')
  t.equal(
    estimateText({ ...estimate(null), strata: [stratum('unsure', 0, 0), stratum('confident', 0, 0)] }),
    'estimate: no answers in the store',
  )
})

t.test('the confusion table leaves out labels that never occur', async (t) => {
  const lines = confusionLines({
    labels: ['low', 'medium', 'high'],
    counts: [
      [2, 0, 1],
      [0, 0, 0],
      [0, 0, 3],
    ],
  })
  t.same(lines, ['    true \\ model  low  high', '    low           2    1', '    high          0    3'])
})

t.test('the report skips the run line of a judgment that has no run, and says which figure is which', async (t) => {
  const report = testReport([], [spec()], new Map([['spam', { is_spam: score(0, 0) }]]))
  t.match(
    report,
    /^ {2}is_spam: estimate not estimable yet.*\n {4}pooled: no rows with a known label and an answer\n {4}reviewed 3, context gap 1, ambiguous 2, pending 4\n {4}agreement with people: not yet \(no reviewed random-sample row yet\)\nestimate: the accuracy over every answer/,
  )
  t.match(report, /\npooled: every row with a known label taken together/)
})

t.test('the accuracy target is said under the estimate: reached, or the reviews per stratum it takes', async (t) => {
  t.equal(targetText({ accuracy_target: null, reviews_needed: null }), null, 'no target, no line')
  t.equal(
    targetText({ accuracy_target: 0.03, reviews_needed: { unsure: 0, confident: 0 } }),
    'accuracy_target ±3.0%: reached',
  )
  t.equal(
    targetText({ accuracy_target: 0.03, reviews_needed: null }),
    'accuracy_target ±3.0%: no answers to estimate yet',
  )
  t.match(
    targetText({ accuracy_target: 0.05, reviews_needed: { unsure: 12, confident: 30 } }),
    /±5\.0%: about 42 more reviews to reach it \(unsure 12, confident 30/,
  )
  const lines = questionLines(
    'is_spam',
    score(9, 10, {
      estimate: estimate(0.85),
      target: { accuracy_target: 0.05, reviews_needed: { unsure: 1, confident: 2 } },
    }),
    null,
  )
  t.match(lines[1], /^    accuracy_target ±5\.0%: about 3 more reviews/, 'the line after the estimate')
  const json = scoresJson(
    new Map([
      [
        'spam',
        { is_spam: score(9, 10, { target: { accuracy_target: 0.05, reviews_needed: { unsure: 1, confident: 2 } } }) },
      ],
    ]),
  )
  t.match(json.spam.is_spam, { accuracy_target: 0.05, reviews_needed: { unsure: 1, confident: 2 } })
})
