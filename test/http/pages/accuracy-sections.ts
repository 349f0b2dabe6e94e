import t from 'tap'
import { MIX_METHOD } from '../../../src/core/review/label-mix.ts'
import { calibrationSection, mixSection, thresholdsSection } from '../../../src/http/pages/accuracy-sections.ts'
import { MEANINGS } from '../../../src/http/pages/accuracy-terms.ts'
import { escapeHtml } from '../../../src/http/html.ts'
import type { RouteThresholds, ThresholdFigures } from '../../../src/core/review/thresholds.ts'

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
  route: '<block>',
  rule: 0,
  labels: ['yes'],
  variable: 'p',
  current: { ...figures(0.9, 0.9), comparison: '>= 0.9' },
  suggested,
  target: 0.95,
  table: [figures(0.99, 0.99), figures(0.97, 0.97), figures(0.9, null)],
})

t.test(
  'a route shows where it stands, the suggestion, and every threshold tried with the chosen one marked',
  async (t) => {
    const html = thresholdsSection([route(figures(0.97, 0.97))]).text
    t.match(html, /route <code>&lt;block&gt;<\/code> \(label yes\)/)
    t.match(
      html,
      /Now <code>p: "&gt;= 0\.9"<\/code>: precision <strong>90\.0%<\/strong> \(88\.0% to 91\.0%\), routes 40\.0% of answers \(40\)/,
    )
    t.match(html, /Suggested: <code>p: "&gt;= 0\.97"<\/code>/)
    t.match(html, /<tr class="chosen"><td>0\.97<\/td>/)
    t.match(html, /<summary>Every threshold tried \(3\)<\/summary>/)
    t.match(html, /<td class="num">–<\/td><td>–<\/td><\/tr>/, 'a threshold without an estimate')
    t.match(
      thresholdsSection([route(null)]).text,
      /class="alert">No threshold reaches 95\.0% at the lower end of its 95% interval/,
    )
    t.match(thresholdsSection([]).text, /No <code>act<\/code> rule of this question names a label/)
  },
)

t.test('the mix shows the raw and estimated true shares with the method, or why there is no estimate', async (t) => {
  const corrected = mixSection({
    labels: ['yes', 'no'],
    raw: { yes: 0.5, no: 0.5 },
    corrected: { yes: { share: 0.3, interval: [0.25, 0.35] }, no: { share: 0.7, interval: [0.65, 0.75] } },
    method: MIX_METHOD,
    reason: null,
  }).text
  t.match(corrected, /The true mix by prediction-powered inference \(PPI\+\+: stratified, power-tuned\)/)
  t.ok(
    corrected.includes(
      `<details class="term"><summary>${MIX_METHOD}</summary><p class="muted">${escapeHtml(MEANINGS.mix)}`,
    ),
    'the method expands to what it means',
  )
  t.match(corrected, /<td>yes<\/td><td class="num">50\.0%<\/td><td class="num">30\.0%<\/td><td>25\.0% to 35\.0%<\/td>/)
  const none = mixSection({
    labels: ['a', 'b', 'c'],
    raw: { a: 1 },
    corrected: null,
    method: MIX_METHOD,
    reason: 'no answers',
  }).text
  t.match(none, /No estimated true mix: no answers\./)
  t.match(none, /<td>b<\/td><td class="num">0\.0%<\/td><td class="num">–<\/td>/)
})

t.test('the calibration lists the bins with answers beside the plot, and its ECE', async (t) => {
  const bins = Array.from({ length: 10 }, (_, i) => ({
    low: i / 10,
    high: (i + 1) / 10,
    answers: i === 9 ? 5 : 0,
    share: i === 9 ? 1 : 0,
    confidence: i === 9 ? 0.95 : null,
    sampled: i === 9 ? 5 : 0,
    accuracy: i === 9 ? 0.8 : null,
    interval: i === 9 ? ([0.4, 0.96] as const) : null,
  }))
  const html = calibrationSection('q', { bins, ece: 0.15, covered: 1 }).text
  t.match(
    html,
    /Expected calibration error <strong>15\.0%<\/strong>, over the bins with a sample \(100\.0% of the answers\)/,
  )
  t.equal(html.match(/<tr><td>/g)?.length, 1, 'only bins with answers')
  t.match(html, /<svg class="chart reliability"/)
  t.ok(html.includes(`<summary>expected calibration error</summary><p class="muted">${escapeHtml(MEANINGS.ece)}`))
  t.match(calibrationSection('q', { bins, ece: null, covered: 0 }).text, /No reviewed rows yet/)
})
