import t from 'tap'
import { homePage, spendLine, status } from '../../../src/http/pages/home.ts'

const run = { run_id: '20260101T000000Z-abcdef', judgment: 'spam', spec_hash: 'h', git_sha: '', model: 'm', rows: 12, asked: 3, cost: 0.0012, status: 'complete', started_at: 's', finished_at: 'f', command: 'run', source: 'messages.csv', source_hash: 'x', node: 'spam', reported_model: 'm', states: 12 }

t.test('the home page lists each folder with its judgments, last run and links', async (t) => {
  const page = homePage([
    { path: 'sms', judgments: ['spam', 'tone'], lastRun: run, spend: null, error: null },
    { path: 'new', judgments: ['x'], lastRun: null, spend: null, error: null },
  ], null).text
  t.match(page, /2 folders of specs/)
  t.match(page, /<h2><code>sms<\/code><\/h2>/)
  t.match(page, /Last run <code>20260101T000000Z-abcdef<\/code> of <code>spam<\/code>: 12 rows, \$0\.0012, model <code>m<\/code>, complete/)
  t.notMatch(page, /simulated/)
  t.match(page, /href="\/review\?path=sms&amp;node=spam">review queue<\/a>/)
  t.match(page, /href="\/review\?path=sms&amp;node=tone">review queue<\/a>/)
  t.match(page, /href="\/runs\?path=sms">runs and drift<\/a>/)
  t.match(page, /No runs yet/)
})

t.test('a last run of the simulated engine says so', async (t) => {
  const page = homePage([{ path: 'sms', judgments: ['spam'], lastRun: { ...run, model: 'simulated-1' }, spend: null, error: null }], null).text
  t.match(page, /model <code>simulated-1<\/code> <span class="alert">\(simulated answers, not a real model's\)<\/span>, complete/)
})

t.test('a folder that does not load shows its error, escaped, and the rest still show', async (t) => {
  const page = homePage([{ path: '<script>', judgments: [], lastRun: null, spend: null, error: 'bad: <script>alert(1)</script>' }], 'tok').text
  t.notMatch(page, /<script>/)
  t.match(page, /<code>&lt;script&gt;<\/code>/)
  t.match(page, /<p class="error">bad: &lt;script&gt;alert\(1\)&lt;\/script&gt;<\/p>/)
  t.match(page, /1 folder of specs/)
})

t.test('the server\'s engine spend today is shown against the daily cap, flagged once reached', async (t) => {
  const day = (cost: number, requests: number) => ({ day: '2026-11-22', cost, requests })
  t.equal(spendLine({ daily_cap: null, today: day(0, 0), days: [] }).text, '<p class="spend">Engine spend by the server today (UTC): $0.00 in 0 requests, no daily cap</p>')
  const older = { day: '2026-11-21', cost: 0.5, requests: 10 }
  const line = spendLine({ daily_cap: 2, today: day(1.25, 31), days: [day(1.25, 31), older] }).text
  t.match(line, /today \(UTC\): \$1\.25 in 31 requests, of the \$2\.00 daily cap; \$1\.75 over the last 2 days with spend/)
  t.match(spendLine({ daily_cap: 1, today: day(1, 3), days: [day(1, 3)] }).text, /<span class="alert">reached: new rows get 503<\/span>/)
  t.equal(spendLine(null).text, '')
})

t.test('an empty served folder says there are no specs', async (t) => {
  t.match(homePage([], null).text, /No spec files/)
  t.equal(status('failed: x').text, '<span class="alert">failed: x</span>')
})
