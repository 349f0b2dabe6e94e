import t from 'tap'
import { MIX_METHOD } from '../../../src/core/review/label-mix.ts'
import { agreementOf } from '../../helpers/agreement.ts'
import { accuracyPage } from '../../../src/http/pages/accuracy.ts'
import { MEANINGS } from '../../../src/http/pages/accuracy-terms.ts'
import { escapeHtml } from '../../../src/http/html.ts'
import type { AccuracyPageData } from '../../../src/http/page-data/accuracy.ts'
import type { QuestionAccuracy } from '../../../src/app/accuracy.ts'
import type { AccuracyEstimate } from '../../../src/core/review/estimate.ts'

const estimate = (point: number | null): AccuracyEstimate => ({
  estimable: point !== null,
  point,
  interval: point === null ? null : [point - 0.05, point + 0.03],
  method: 'stratified Wilson',
  needed: point === null ? 2 : 0,
  strata: [
    {
      stratum: 'unsure',
      size: 100,
      weight: 0.1,
      sampled: 10,
      counted: 9,
      correct: 6,
      accuracy: 6 / 9,
      needs_context: 1,
      ambiguous: 0,
      outside: 2,
      next: 'abc',
      needed: 0,
    },
    {
      stratum: 'confident',
      size: 900,
      weight: 0.9,
      sampled: 30,
      counted: 30,
      correct: 29,
      accuracy: 29 / 30,
      needs_context: 0,
      ambiguous: 0,
      outside: 0,
      next: 'def',
      needed: 0,
    },
  ],
  naive: { accuracy: 0.8, interval: [0.7, 0.88], counted: 55 },
})
const question = (point: number | null): QuestionAccuracy => ({
  ask: 'Is it <spam>?',
  labels: ['yes', 'no'],
  estimate: estimate(point),
  calibration: { bins: [], ece: null, covered: 0 },
  thresholds: [],
  sources: { distribution: 1000 },
  mix: { labels: ['yes', 'no'], raw: { yes: 0.5, no: 0.5 }, corrected: null, method: MIX_METHOD, reason: 'no answers' },
  agreement: agreementOf(point === null ? null : 0.71),
  accuracy_target: null,
  reviews_needed: null,
})
const data = (point: number | null, act: string | null): AccuracyPageData => ({
  path: 'sms',
  judgments: ['spam', 'other'],
  report: {
    judgment: 'spam',
    model: 'jev',
    unsure_below: 0.2,
    key_sample: 'chosen',
    target: 0.95,
    questions: { is_spam: question(point) },
    act,
  },
})

t.test(
  'the page shows the estimate beside the pooled figure, the strata, and the act block, with links carrying the token',
  async (t) => {
    const html = accuracyPage(data(0.9, 'act:\n  is_spam: <x>\n'), 'tok').text
    t.match(html, /<h1>Accuracy of <code>spam<\/code><\/h1>/)
    t.match(
      html,
      /<p class="figure">Estimated accuracy <strong>90\.0%<\/strong> \(95% interval 85\.0% to 93\.0%\) over all 1000 answers\.<\/p>/,
    )
    t.match(html, /Pooled over the 55 rows with a known label: 80\.0% \(70\.0% to 88\.0%\)/)
    t.match(
      html,
      /<tr><td>unsure<\/td><td class="num">100<\/td><td class="num">10\.0%<\/td>\n<td class="num">10<\/td><td class="num">9<\/td><td class="num">6<\/td><td class="num">66\.7%<\/td>\n<td class="num">1<\/td><td class="num">0<\/td><td class="num">2<\/td><td class="num">0<\/td><\/tr>/,
    )
    t.match(html, /<pre class="card">act:\n {2}is_spam: &lt;x&gt;\n<\/pre>/)
    t.match(html, /Is it &lt;spam&gt;\?/)
    t.match(html, /href="\/accuracy\?path=sms&amp;node=other&amp;token=tok">accuracy of other<\/a>/)
    t.match(html, /href="\/review\?path=sms&amp;node=spam&amp;token=tok">review queue<\/a>/)
  },
)

t.test('a question not estimable yet says how many reviews it needs; no act, no block', async (t) => {
  const html = accuracyPage(data(null, null), null).text
  t.match(
    html,
    /<p class="figure alert">Not estimable yet: review 2 more rows in the order the queue offers them\.<\/p>/,
  )
  t.notMatch(html, /act block to paste/)
})

t.test(
  'the accuracy target says the reviews per stratum it takes, or that it is reached; without one, nothing',
  async (t) => {
    const withTarget = (
      reviews_needed: { split: number; unsure: number; confident: number } | null,
    ): AccuracyPageData => {
      const d = data(0.9, null)
      return {
        ...d,
        report: { ...d.report, questions: { is_spam: { ...question(0.9), accuracy_target: 0.03, reviews_needed } } },
      }
    }
    t.match(
      accuracyPage(withTarget({ split: 0, unsure: 40, confident: 80 }), null).text,
      /<p class="target">Target: a 95% interval within ±3\.0%: about <strong>120<\/strong> more reviews, 40 unsure and 80 confident/,
    )
    t.match(
      accuracyPage(withTarget({ split: 0, unsure: 0, confident: 0 }), null).text,
      /±3\.0%: <strong>reached<\/strong>\./,
    )
    t.match(accuracyPage(withTarget(null), null).text, /±3\.0%; no answers to estimate yet\./)
    t.notMatch(accuracyPage(data(0.9, null), null).text, /class="target"/)
  },
)

t.test('an estimate from few rows says so in plain words before its figure; a narrow one does not', async (t) => {
  const d = data(0.5, null)
  const wide = {
    ...d,
    report: {
      ...d.report,
      questions: { is_spam: { ...question(0.5), estimate: { ...estimate(0.5), interval: [0.2, 0.75] as const } } },
    },
  }
  t.match(
    accuracyPage(wide, null).text,
    /<p class="figure alert">Only 39 sampled rows have a known label, too few to say much: the accuracy is somewhere between 20% and 75%\.<\/p><p class="figure">Estimated accuracy <strong>50\.0%/,
  )
  t.notMatch(accuracyPage(data(0.9, null), null).text, /too few to say much/, 'an interval of 8 points needs no words')
})

t.test('each method name on the page expands to a sentence saying what it means, escaped', async (t) => {
  const d = data(0.9, null)
  const page = accuracyPage(
    {
      ...d,
      report: {
        ...d.report,
        questions: { is_spam: { ...question(0.9), estimate: { ...estimate(0.9), method: 'stratified <Wilson>' } } },
      },
    },
    null,
  ).text
  t.match(
    page,
    /<details class="term"><summary>stratified &lt;Wilson&gt;<\/summary><p class="muted">Each stratum&#39;s/,
  )
  t.match(page, /<th class="num">\n?<a href="#is_spam-gap">reviewed past a gap<\/a><\/th>/, 'the column heading links')
  t.match(page, /<details class="term" id="is_spam-gap"><summary>reviewed past a gap<\/summary>/)
  for (const name of ['estimate', 'gap', 'ece', 'kappa'] as const)
    t.ok(page.includes(escapeHtml(MEANINGS[name])), `the meaning of ${name} is on the page`)
  t.notOk(page.includes(MEANINGS.estimate), 'never unescaped')
})

t.test('a question answered from text alone is warned of where its thresholds are; others are not', async (t) => {
  const plain = data(0.9, null)
  t.notMatch(accuracyPage(plain, null).text, /text alone/)
  const texted = { ...plain.report.questions.is_spam, sources: { text: 1000 } }
  const html = accuracyPage({ ...plain, report: { ...plain.report, questions: { is_spam: texted } } }, null).text
  t.match(
    html,
    /<p class="alert text-only"><code>is_spam<\/code> answered from text alone: p is 1 for every answer, so routes and thresholds on p or margin mean nothing; set ENGINE_SAMPLES above 1\.<\/p><h3>Thresholds<\/h3>/,
  )
})

t.test("a jury's question shows what each juror buys after its agreement; a one-model question does not", async (t) => {
  const plain = data(0.9, null)
  t.notMatch(accuracyPage(plain, null).text, /What each juror buys/)
  const weights = {
    kind: 'vote',
    reviewed: 0,
    complete: 0,
    needed: 30,
    converged: true,
    iterations: 0,
    prior: {},
    jurors: [],
  } as const
  const jury = { model: 'jury:a+b', rows: 0, correct: 0, accuracy: null, interval: null, cost_usd: 0, weights }
  const judged = { ...plain.report.questions.is_spam, jury, jurors: [] }
  const html = accuracyPage({ ...plain, report: { ...plain.report, questions: { is_spam: judged } } }, null).text
  t.match(html, /<h3>What each juror buys<\/h3>[^]*<\/section>/)
})

t.test("a jury's split stratum is listed in plain words when it has answers, and not when it is empty", async (t) => {
  const withSplit = (size: number): AccuracyPageData => {
    const d = data(0.9, null)
    const q = question(0.9)
    const split = { ...q.estimate.strata[0], stratum: 'split' as const, size, next: null }
    return {
      ...d,
      report: {
        ...d.report,
        questions: {
          is_spam: {
            ...q,
            estimate: { ...q.estimate, strata: [split, ...q.estimate.strata] },
            accuracy_target: 0.03,
            reviews_needed: { split: 5, unsure: 40, confident: 80 },
          },
        },
      },
    }
  }
  const page = accuracyPage(withSplit(50), null).text
  t.match(page, /<tr><td>split \(jurors disagree\)<\/td><td class="num">50<\/td>/)
  t.match(page, /about <strong>125<\/strong> more reviews, 5 where jurors disagree, 40 unsure and 80 confident/)
  t.notMatch(accuracyPage(withSplit(0), null).text, /<td>split/, 'an empty split stratum is not listed')
})
