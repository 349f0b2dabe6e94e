import t from 'tap'
import type { QuestionComparison } from '../../../src/core/compare/compare.ts'
import { comparePage } from '../../../src/http/pages/compare.ts'
import type { CompareData } from '../../../src/http/page-data/compare.ts'

const question = (over: Partial<QuestionComparison> = {}): QuestionComparison => ({
  changed: true,
  changes: ['question'],
  rows: 200,
  discordant: 0.1,
  discordant_rows: 20,
  flips: [
    { live: 'no', candidate: '<yes>', rows: 15 },
    { live: 'yes', candidate: 'no', rows: 5 },
  ],
  reviewed: 12,
  next: 'abcdef0123456789',
  paired: null,
  difference: 0.03,
  interval: [0.01, 0.05],
  p_value: 0.0004,
  rows_difference: null,
  method: 'discordant rows',
  verdict: 'better',
  reviews_needed: 8,
  ...over,
})
const data = (questions: Record<string, QuestionComparison>): CompareData => ({
  path: 'sms/spam.judge.yaml',
  candidate: 'sms/candidates/spam-v2.judge.yaml',
  report: {
    live: { judgment: 'spam', spec_hash: 'aaaa', model: 'jev' },
    candidate: { judgment: 'spam-v2', spec_hash: 'bbbb', model: 'jev' },
    source: 'kept rows of spam',
    kept: 300,
    compared: 200,
    margin: 0.01,
    cost_per_1000: { live: 0.05, candidate: null },
    totals: null,
    run: null,
    questions,
  },
})

t.test(
  'the page shows both specs, and per question the rows that differ, the difference, the verdict and the reviews it needs',
  async (t) => {
    const html = comparePage(data({ is_spam: question() }), 'tok').text
    t.match(html, /<h1>Compare <code>spam-v2<\/code> with <code>spam<\/code><\/h1>/)
    t.match(
      html,
      /<th>candidate<\/th><td><code>bbbb<\/code><\/td><td><code>jev<\/code><\/td><td class="num">not estimable<\/td>/,
    )
    t.match(html, /200 of 300 kept rows compared/)
    t.match(html, /they differ on <strong>10\.0%<\/strong> \(20\)/)
    t.match(html, /<tr><td>no<\/td><td>&lt;yes&gt;<\/td><td class="num">15<\/td><\/tr>/, 'every value escaped')
    t.match(
      html,
      /Accuracy difference \(candidate - live\) <strong>\+3\.0 points<\/strong>, 95% interval \+1\.0 points to \+5\.0 points, p &lt; 0\.001\./,
    )
    t.match(html, /By the discordant rows: 12 of the 20 rows where they differ reviewed/)
    t.match(
      html,
      /Verdict: <strong class="ok">better<\/strong>\. <a href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;compare=sms%2Fcandidates%2Fspam-v2\.judge\.yaml&amp;token=tok">Review <strong>8<\/strong> more of the rows where they differ<\/a> to settle it within ±1\.0% \(next <code>abcdef0123456789<\/code>\)\./,
    )
    t.match(html, /href="\/runs\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;token=tok"/)
  },
)

t.test('no rows compared, or no difference estimated yet, is said so; worse is in red', async (t) => {
  const html = comparePage(
    data({
      a: question({ discordant: null, rows: 0 }),
      b: question({
        difference: null,
        interval: null,
        p_value: null,
        method: null,
        verdict: 'not enough evidence',
        reviews_needed: 0,
      }),
      c: question({
        difference: -0.04,
        interval: [-0.06, -0.02],
        verdict: 'worse',
        method: 'paired rows',
        paired: { rows: 9, difference: -0.04, interval: [-0.06, -0.02], p_value: 0.2 },
      }),
    }),
    null,
  ).text
  t.match(html, /<h2><code>a<\/code><\/h2><p class="muted">No rows compared\.<\/p>/)
  t.match(html, /No difference estimated yet/)
  t.match(html, /-4\.0 points/)
  t.match(html, /By the paired rows: 9 compared rows with a known label/)
  t.match(html, /<strong class="alert">worse<\/strong>/)
})

t.test('every discordant row known: the exact difference on the rows beside the interval for traffic', async (t) => {
  const html = comparePage(
    data({
      a: question({
        reviewed: 20,
        reviews_needed: 0,
        rows_difference: -0.02,
        verdict: 'no difference shown',
        interval: [-0.2, 0.1],
      }),
    }),
    null,
  ).text
  t.match(html, /The interval is for the traffic the compared rows sample\./)
  t.match(
    html,
    /On these 200 rows exactly <strong>-2\.0 points<\/strong> \(every row where they differ has a known label\)\./,
  )
  t.notMatch(comparePage(data({ a: question() }), null).text, /On these/, 'a sample: nothing is exact')
})

t.test('each card says what changed; an unchanged question says so, with its exact 0, outside any gate', async (t) => {
  const html = comparePage(
    data({
      is_spam: question({ changes: ['question', 'model'] }),
      topic: question({
        changed: false,
        changes: [],
        discordant: 0,
        discordant_rows: 0,
        flips: [],
        difference: 0,
        interval: [0, 0],
        verdict: 'unchanged',
      }),
    }),
    null,
  ).text
  t.match(html, /<h2><code>is_spam<\/code><\/h2>\n<p>Changed: wording or labels, model\.<\/p>/)
  t.match(
    html,
    /<h2><code>topic<\/code><\/h2><p>Unchanged: asked as the live spec asks it \(same wording, labels, model, state and store\), so its answers are the live ones and the difference is exactly 0; 200 rows compared\. It is outside any gate\.<\/p>\n<p>Verdict: <strong class="muted">unchanged<\/strong>\.<\/p>/,
  )
  t.notMatch(html.slice(html.indexOf('<code>topic')), /95% interval|Review/, 'nothing to estimate or review')
})

t.test("a simulated model's cost per 1,000 rows is said as what System One would charge, nothing spent", async (t) => {
  const base = data({ is_spam: question() })
  const simulated = { ...base.report.live, model: 'simulated-1' }
  const page = comparePage({ ...base, report: { ...base.report, live: simulated } }, null).text
  t.match(page, /<td class="num">would cost \$0\.05 on System One \(simulated: nothing spent\)<\/td>/)
})
