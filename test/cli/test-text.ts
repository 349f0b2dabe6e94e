import t from 'tap'
import { agreementOf } from '../helpers/agreement.ts'
import type { ScoredQuestion } from '../../src/app/review-data.ts'
import type { AccuracyEstimate, StratumFigure } from '../../src/core/review/estimate.ts'
import type { RunRecord } from '../../src/core/types.ts'
import { METHOD } from '../../src/core/review/estimate.ts'
import {
  belowBar,
  confusionLines,
  estimateText,
  NO_KEY,
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
  const report = testReport(
    [],
    [spec(SPAM_YAML + 'key: spam.key.csv\n')],
    new Map([['spam', { is_spam: score(0, 0) }]]),
  )
  t.match(
    report,
    /^ {2}is_spam: estimate not estimable yet.*\n {4}pooled: no rows with a known label and an answer\n {4}reviewed 3, context gap 1, ambiguous 2, pending 4\n {4}agreement with people: not yet \(no reviewed random-sample row yet\)\nestimate: the accuracy over every answer/,
  )
  t.match(report, /\npooled: every row with a known label taken together/)
})

t.test('the accuracy target is said under the estimate: reached, or the reviews per stratum it takes', async (t) => {
  t.equal(targetText({ accuracy_target: null, reviews_needed: null }), null, 'no target, no line')
  t.equal(
    targetText({ accuracy_target: 0.03, reviews_needed: { split: 0, unsure: 0, confident: 0 } }),
    'accuracy_target ±3.0%: reached',
  )
  t.equal(
    targetText({ accuracy_target: 0.03, reviews_needed: null }),
    'accuracy_target ±3.0%: no answers to estimate yet',
  )
  t.match(
    targetText({ accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 12, confident: 30 } }),
    /±5\.0%: about 42 more reviews to reach it \(unsure 12, confident 30/,
  )
  t.match(
    targetText({ accuracy_target: 0.05, reviews_needed: { split: 4, unsure: 12, confident: 30 } }),
    /about 46 more reviews to reach it \(split 4, unsure 12, confident 30;/,
    "a jury's split stratum is named when it needs reviews",
  )
  const lines = questionLines(
    'is_spam',
    score(9, 10, {
      estimate: estimate(0.85),
      target: { accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 1, confident: 2 } },
    }),
    null,
  )
  t.match(lines[1], /^    accuracy_target ±5\.0%: about 3 more reviews/, 'the line after the estimate')
  const json = scoresJson(
    new Map([
      [
        'spam',
        {
          is_spam: score(9, 10, {
            target: { accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 1, confident: 2 } },
          }),
        },
      ],
    ]),
  )
  t.match(json.spam.is_spam, { accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 1, confident: 2 } })
})

t.test('a judgment without a key says, in one line before its questions, what a key would add', async (t) => {
  const report = testReport([], [spec()], new Map([['spam', { is_spam: score(0, 0) }]]))
  t.equal(report.split('\n')[0], `spam: ${NO_KEY}`)
  t.match(NO_KEY, /^no answer key \(key:\): these figures rest on reviewers' verdicts alone; a key .* would /)
  t.notMatch(
    testReport([], [spec(SPAM_YAML + 'key: spam.key.csv\n')], new Map([['spam', { is_spam: score(0, 0) }]])),
    /no answer key/,
    'nothing of the kind with a key',
  )
})

t.test('an estimate from few rows says so in words before its figures', async (t) => {
  const few: AccuracyEstimate = {
    ...estimate(0),
    interval: [0, 0.682],
    strata: [stratum('unsure', 1, 1, { correct: 0 }), stratum('confident', 42, 1, { correct: 0 })],
  }
  t.equal(
    estimateText(few),
    'only 2 sampled rows have a known label, too few to say much: the accuracy is somewhere between 0% and 68%; ' +
      'estimate 0.0% over all 43 answers, 95% interval 0.0% to 68.2% (sampled 1 of 1 unsure, 1 of 42 confident)',
  )
  t.match(estimateText(estimate(0.85)), /^estimate 85\.0% over all 500 answers/, 'a 15-point interval needs no words')
})

t.test("the run line words a simulated run's cost as every command does, and a real one's as a price", async (t) => {
  const run = (model: string): RunRecord => ({
    run_id: '20261128T090000Z-abcd',
    judgment: 'spam',
    spec_hash: 'abcdef0123456789',
    git_sha: '',
    model,
    rows: 3,
    asked: 3,
    cost: 0.0176,
    status: 'complete',
    started_at: '2026-11-28T09:00:00',
    finished_at: '2026-11-28T09:00:01',
    cached: 0,
    requests: 3,
    command: 'test',
    source: 'spam.key.csv',
    source_hash: '',
    node: 'spam',
    reported_model: model,
    states: 3,
    fingerprints: {},
  })
  const scores = new Map([['spam', { is_spam: score(0, 0) }]])
  const keyed = [spec(SPAM_YAML + 'key: spam.key.csv\n')]
  t.match(
    testReport([run('simulated-1')], keyed, scores),
    /^spam: 3 rows judged, 0 answers cached, 3 asked in 3 requests, would cost \$0\.0176 .*\(simulated: nothing spent\); complete/,
  )
  t.match(testReport([run('jev-1.13.0')], keyed, scores), /in 3 requests, cost \$0\.0176; complete/)
})
