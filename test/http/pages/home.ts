import t from 'tap'
import type { AccuracySummary } from '../../../src/app/accuracy-summary.ts'
import type { HomeFolder } from '../../../src/http/page-data/home.ts'
import { homePage, spendLine, status } from '../../../src/http/pages/home.ts'

const none: AccuracySummary = {
  answers: 0,
  estimable: false,
  estimate: null,
  interval: null,
  needed: 0,
  pending: 0,
  reviewed: 0,
}
const judged: AccuracySummary = {
  answers: 1200,
  estimable: true,
  estimate: 0.9,
  interval: [0.82, 0.95],
  needed: 0,
  pending: 3,
  reviewed: 41,
}
const judgment = (
  name: string,
  questions: Record<string, AccuracySummary> | null = { is_spam: none },
  error: string | null = null,
) => ({ name, questions, error })
const folder = (
  path: string,
  judgments: HomeFolder['judgments'],
  last_run: HomeFolder['last_run'],
  error: string | null = null,
): HomeFolder => ({ path, name: path, judgments, last_run, spend: null, error })

const run = {
  run_id: '20260101T000000Z-abcdef',
  judgment: 'spam',
  spec_hash: 'h',
  git_sha: '',
  model: 'm',
  rows: 12,
  asked: 3,
  cost: 0.0012,
  status: 'complete',
  started_at: 's',
  finished_at: 'f',
  command: 'run',
  source: 'messages.csv',
  source_hash: 'x',
  node: 'spam',
  reported_model: 'm',
  states: 12,
}

t.test('the home page lists each folder with its judgments, last run and links', async (t) => {
  const page = homePage(
    { folders: [folder('sms', [judgment('spam'), judgment('tone')], run), folder('new', [judgment('x')], null)] },
    null,
  ).text
  t.match(page, /2 folders of specs/)
  t.match(page, /<h2><code>sms<\/code><\/h2>/)
  t.match(
    page,
    /Last run <code>20260101T000000Z-abcdef<\/code> of <code>spam<\/code>: 12 rows, \$0\.0012, model <code>m<\/code>, complete/,
  )
  t.notMatch(page, /simulated/)
  t.match(page, /href="\/review\?path=sms&amp;node=spam">review queue<\/a>/)
  t.match(page, /href="\/review\?path=sms&amp;node=tone">review queue<\/a>/)
  t.match(page, /href="\/runs\?path=sms">runs and drift<\/a>/)
  t.match(page, /No runs yet: <code>judge run<\/code> records one per judgment/)
})

t.test('a last run of the simulated engine says so', async (t) => {
  const page = homePage({ folders: [folder('sms', [judgment('spam')], { ...run, model: 'simulated-1' })] }, null).text
  t.match(
    page,
    /model <code>simulated-1<\/code> <span class="alert">\(simulated answers, not a real model's\)<\/span>, complete/,
  )
  t.match(page, /12 rows, would cost \$0\.0012 on System One \(simulated: nothing spent\), model/)
})

t.test('a folder that does not load shows its error, escaped, and the rest still show', async (t) => {
  const page = homePage({ folders: [folder('<script>', [], null, 'bad: <script>alert(1)</script>')] }, 'tok').text
  t.notMatch(page, /<script>/)
  t.match(page, /<code>&lt;script&gt;<\/code>/)
  t.match(page, /<p class="error">bad: &lt;script&gt;alert\(1\)&lt;\/script&gt;<\/p>/)
  t.match(page, /1 folder of specs/)
})

t.test("each judgment shows each question's estimated accuracy, its interval and the reviews waiting", async (t) => {
  const page = homePage(
    {
      folders: [
        folder(
          'sms',
          [
            judgment('spam', {
              is_spam: judged,
              topic: { ...judged, estimable: false, estimate: null, interval: null, needed: 2, pending: 0 },
              urgency: none,
            }),
          ],
          run,
        ),
      ],
    },
    null,
  ).text
  t.match(
    page,
    /<tr><td><code>is_spam<\/code><\/td><td><strong>90\.0%<\/strong> <span class="estimate">\(82\.0% to 95\.0%\)<\/span> <span class="muted">· 1200 answers<\/span><\/td><td><span class="alert">3 disagreements<\/span> with the key <span class="muted">· 41 reviewed<\/span><\/td><\/tr>/,
  )
  t.match(
    page,
    /<td><code>topic<\/code><\/td><td><span class="muted">not estimable yet: review 2 more rows<\/span> <span class="muted">· 1200 answers<\/span><\/td><td>no disagreement with the key/,
  )
  t.match(
    page,
    /<td><code>urgency<\/code><\/td><td><span class="muted">no answers yet: <code>judge run<\/code> adds them<\/span>/,
  )
  t.match(
    page,
    /<h3><code>spam<\/code> <span class="links"><a href="\/review\?path=sms&amp;node=spam">review queue<\/a> · <a href="\/runs\?path=sms&amp;node=spam">runs<\/a> · <a href="\/accuracy\?path=sms&amp;node=spam">accuracy<\/a><\/span><\/h3>/,
  )
  const broken = homePage(
    { folders: [folder('sms', [judgment('spam', null, 'spam.key.csv:3: bad')], null)] },
    null,
  ).text
  t.match(broken, /<p class="error">spam\.key\.csv:3: bad<\/p>/)
  t.match(broken, /review queue<\/a>/, 'the links stay')
})

t.test("the server's engine spend today is shown against the daily cap, flagged once reached", async (t) => {
  const day = (cost: number, requests: number) => ({ day: '2026-11-22', cost, requests })
  const simulated = { today: day(0, 0), days: [] }
  t.equal(
    spendLine({ daily_cap: null, today: day(0, 0), days: [], simulated }).text,
    '<p class="spend">Engine spend by the server today (UTC): $0.00 in 0 requests, no daily cap</p>',
  )
  const older = { day: '2026-11-21', cost: 0.5, requests: 10 }
  const line = spendLine({ daily_cap: 2, today: day(1.25, 31), days: [day(1.25, 31), older], simulated }).text
  t.match(
    line,
    /today \(UTC\): \$1\.25 in 31 requests, of the \$2\.00 daily cap; \$1\.75 over the last 2 days with spend<\/p>/,
  )
  t.match(
    spendLine({ daily_cap: 1, today: day(1, 3), days: [day(1, 3)], simulated }).text,
    /<span class="alert">reached: new rows get 503<\/span>/,
  )
  t.equal(spendLine(null).text, '')
})

t.test("the simulated engine's answers are shown apart from the spend, as what they would have cost", async (t) => {
  const day = (cost: number, requests: number) => ({ day: '2026-11-22', cost, requests })
  t.equal(
    spendLine({
      daily_cap: null,
      today: day(0, 0),
      days: [],
      simulated: { today: day(0.002, 4), days: [day(0.002, 4)] },
    }).text,
    '<p class="spend">Engine spend by the server today (UTC): $0.00 in 0 requests, no daily cap; simulated answers ' +
      'today: 4 requests, would cost $0.002 on System One (simulated: nothing spent)</p>',
  )
})

t.test('an empty served folder says there are no specs, and what to do', async (t) => {
  t.match(
    homePage({ folders: [] }, null).text,
    /No spec file \(<code>\*\.judge\.yaml<\/code>\) was found in the served folder\. <code>judge init data\.csv<\/code> writes one/,
  )
  t.equal(status('failed: x').text, '<span class="alert">failed: x</span>')
})
