import t from 'tap'
import { calibrateJson, calibrateReport, routeLines } from '../../src/cli/calibrate-text.ts'
import type { AccuracyReport } from '../../src/app/accuracy.ts'
import type { RouteThresholds, ThresholdFigures } from '../../src/core/review/thresholds.ts'

const figures = (threshold: number, precision: number | null): ThresholdFigures => ({
  threshold,
  routed: 40,
  share: 0.4,
  share_interval: [0.3, 0.5],
  sampled: 30,
  precision,
  interval: precision === null ? null : [precision - 0.02, precision + 0.01],
})
const route = (suggested: ThresholdFigures | null): RouteThresholds => ({
  question: 'is_spam',
  route: 'block',
  rule: 0,
  labels: ['yes'],
  variable: 'p',
  current: { ...figures(0.92, 0.9), comparison: '>= 0.92' },
  suggested,
  target: 0.95,
  table: [0.99, 0.98, 0.97, 0.96, 0.95, 0.94, 0.93, 0.92, 0.91, 0.9].map((x) => figures(x, x)),
})
const report = (
  thresholds: RouteThresholds[],
  act: string | null,
  sources: AccuracyReport['questions'][string]['sources'] = { distribution: 40 },
): AccuracyReport => ({
  judgment: 'spam',
  model: 'm',
  unsure_below: 0.2,
  key_sample: 'random',
  target: 0.95,
  act,
  questions: {
    is_spam: {
      ask: '',
      labels: [],
      estimate: {} as never,
      calibration: {} as never,
      thresholds,
      sources,
      mix: {} as never,
      agreement: {} as never,
      accuracy_target: null,
      reviews_needed: null,
    },
  },
})

t.test(
  'a route prints where it stands, the suggestion, and every fifth hundredth with the two thresholds that matter',
  async (t) => {
    const lines = routeLines(route(figures(0.97, 0.97)))
    t.equal(
      lines[0],
      '  is_spam -> block (label yes, p): now ">= 0.92": precision 90.0% (88.0% to 91.0%), routes 40.0% of answers (40)',
    )
    t.equal(lines[1], '    suggested "p >= 0.97": precision 97.0% (95.0% to 98.0%), routes 40.0% of answers (40)')
    t.same(
      lines.slice(3).map((l) => l.trim().split(/\s+/)[0]),
      ['0.97', '0.95', '0.92', '0.9'],
    )
    t.match(lines[3], /^ {4}0\.97 \* /, 'the suggestion is starred')
    t.match(
      routeLines(route(null))[1],
      /no threshold reaches 95\.0% at the lower end of its 95% interval: review more rows/,
    )
  },
)

t.test('the report ends with the act block to paste; --json gives the target, thresholds and block', async (t) => {
  const text = calibrateReport(
    [report([route(figures(0.97, 0.97))], 'act:\n  is_spam: []\n')],
    new Map([['spam', 'spam.judge.yaml']]),
  )
  t.match(text, /^spam: thresholds whose precision is at least 95\.0% at the lower end of the 95% interval\n/)
  t.match(text, /  the act block to paste into spam\.judge\.yaml:\n {4}act:\n {6}is_spam: \[\]\n$/)
  t.match(
    calibrateReport([report([], null)], new Map()),
    /no act rule names a label and tests p or margin from below: nothing to tune/,
  )
  t.same(calibrateJson(report([route(null)], null)), { target: 0.95, thresholds: [route(null)], act: null })
})

t.test(
  'a question answered from text alone is warned of before its thresholds; one with p of its own is not',
  async (t) => {
    const warned = calibrateReport([report([route(null)], null, { text: 30, samples: 10 })], new Map())
    t.match(
      warned,
      /\n {2}is_spam: answered from text alone: p is 1 for every answer, so routes and thresholds on p or margin mean nothing; set ENGINE_SAMPLES above 1\n {2}is_spam -> block/,
    )
    t.notMatch(calibrateReport([report([route(null)], null, { samples: 40 })], new Map()), /text alone/)
    t.notMatch(calibrateReport([report([route(null)], null, {})], new Map()), /text alone/, 'nor one of unknown source')
  },
)
