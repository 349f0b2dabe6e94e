import t from 'tap'
import { SCRIPT_HASH } from '../../../src/http/reply.ts'
import { runsPage } from '../../../src/http/pages/runs.ts'
import type { RunsData } from '../../../src/http/page-data/runs.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'

const EVIL = '<script>alert(1)</script>'
const EVIL_YAML = `name: evil
state: [message]
questions:
  topic:
    ask: Which?
    labels: ["${EVIL}", plain]
`

const data: RunsData = {
  path: 'sms',
  node: null,
  running: [],
  runs: [
    {
      run_id: 'r2',
      judgment: 'spam',
      spec_hash: 'abc',
      git_sha: 'def',
      model: 'jev',
      rows: 10,
      asked: 4,
      cost: 0.00021,
      status: 'failed: engine answered 500',
      started_at: '2026-01-01T00:01:00.000',
      finished_at: 'x',
      command: 'run',
      source: 'later.csv',
      source_hash: 'c0de',
      node: 'spam',
      reported_model: 'jev-9',
      states: 9,
    },
  ],
  judgments: [
    {
      name: 'spam',
      drift: {
        is_spam: [
          {
            run_id: 'r1',
            rows: 10,
            shares: { yes: 0.2, no: 0.8 },
            change: null,
            alert: false,
            p_value: null,
            significant: false,
            same_data: null,
            other_data: null,
          },
          {
            run_id: 'r2',
            rows: 10,
            shares: { yes: 0.5, no: 0.5 },
            change: 0.3,
            alert: true,
            p_value: 0.003,
            significant: true,
            same_data: null,
            other_data: null,
          },
        ],
        topic: [
          {
            run_id: 'r1',
            rows: 10,
            shares: { personal: 1 },
            change: null,
            alert: false,
            p_value: null,
            significant: false,
            same_data: null,
            other_data: null,
          },
        ],
        urgency: [],
      },
      like: {},
      labels: {
        is_spam: ['yes', 'no'],
        topic: ['personal', 'promotion', 'service'],
        urgency: ['low', 'medium', 'high'],
      },
      started: { r1: '2026-01-01T00:00:00.000', r2: '2026-01-01T00:01:00.000' },
      shadows: [],
    },
  ],
}

t.test('the runs page shows the run table, the latest mix per question with drift flagged, and a chart', async (t) => {
  const page = runsPage(data, null).text
  t.match(page, /<h1>Runs of <code>sms<\/code><\/h1>/)
  t.match(
    page,
    /<th>run, started \(UTC\)<\/th><th>status<\/th><th>judgment<\/th><th>ran on<\/th><th class="num">rows<\/th><th class="num">answers asked<\/th>\n<th class="num">cost<\/th><th>model<\/th><th>spec hash, git commit<\/th>/,
  )
  t.match(
    page,
    /<td><a href="\/runs\/r2\?path=sms"><code>r2<\/code><\/a><br><span class="muted nowrap" data-label="started">2026-01-01 00:01:00<\/span><\/td>/,
    'each run id opens its page',
  )
  t.match(
    page,
    /<td data-label="status"><span class="alert">failed: engine answered 500<\/span><\/td><td data-label="judgment">spam<\/td><td data-label="ran on"><code>run<\/code> of <code>later\.csv<\/code><\/td>/,
    'the status second, so a failed run shows at once',
  )
  t.match(
    page,
    /<td class="num" data-label="rows">10<\/td><td class="num" data-label="answers asked">4<\/td><td class="num cost" data-label="cost">\$0\.00021<\/td>/,
  )
  t.match(
    page,
    /<td data-label="model"><code>jev<\/code><br><span class="muted">reported <code>jev-9<\/code><\/span><\/td>\n<td data-label="spec hash, git commit"><code>abc<\/code><br><code>def<\/code><\/td>/,
  )
  const bare = runsPage(
    { ...data, runs: [{ ...data.runs[0], command: '', source: '', git_sha: '', reported_model: 'jev' }] },
    null,
  ).text
  t.match(bare, /<td data-label="ran on"><span class="muted">–<\/span><\/td>/, 'a run from before commands were kept')
  t.match(bare, /<td data-label="model"><code>jev<\/code><\/td>/, 'the reported model only when it differs')
  t.match(bare, /<code>abc<\/code><br><span class="muted">no commit<\/span>/)
  t.match(
    runsPage({ ...data, runs: [{ ...data.runs[0], source: '' }] }, null).text,
    /<code>run<\/code> of <span class="muted">–<\/span>/,
  )
  t.match(
    page,
    /<h4><code>is_spam<\/code> <span class="alert">drift: change 0\.300 since the previous run, above 0\.10 \(p = 0\.003\)<\/span><\/h4>/,
  )
  const noise: RunsData = {
    ...data,
    judgments: [
      {
        ...data.judgments[0],
        drift: {
          ...data.judgments[0].drift,
          is_spam: [
            data.judgments[0].drift.is_spam[0],
            { ...data.judgments[0].drift.is_spam[1], p_value: 0.37, significant: false },
          ],
        },
      },
    ],
  }
  t.match(
    runsPage(noise, null).text,
    /<h4><code>is_spam<\/code> <span class="muted">change 0\.300 since the previous run, above 0\.10 but within noise \(p = 0\.370\)<\/span><\/h4>/,
    'an alert that is noise is not in red',
  )
  const tiny: RunsData = {
    ...data,
    judgments: [
      {
        ...data.judgments[0],
        drift: {
          ...data.judgments[0].drift,
          is_spam: [data.judgments[0].drift.is_spam[0], { ...data.judgments[0].drift.is_spam[1], p_value: 1.634e-8 }],
        },
      },
    ],
  }
  t.match(runsPage(tiny, null).text, /above 0\.10 \(p &lt; 0\.001\)<\/span>/, 'a p value below 0.001 reads p < 0.001')
  t.match(page, /<tr><td>yes<\/td><td class="num">50\.0%<\/td><\/tr><tr><td>no<\/td><td class="num">50\.0%<\/td><\/tr>/)
  t.match(
    page,
    /<tr><td>personal<\/td><td class="num">100\.0%<\/td><\/tr><tr><td>promotion<\/td><td class="num">0\.0%<\/td><\/tr><tr><td>service<\/td><td class="num">0\.0%<\/td><\/tr>/,
    'every label of the question, in spec order',
  )
  t.match(page, /<h4><code>topic<\/code> <span class="muted">first run<\/span><\/h4>/)
  t.match(
    page,
    /<h4><code>urgency<\/code> <\/h4>\n\n<p class="muted">No runs yet: <code>judge run<\/code> records one\.<\/p>/,
  )
  t.equal(page.match(/<figure class="chart-bars">/g)?.length, 2)
  t.match(page, /href="\/review\?path=sms&amp;node=spam">review spam<\/a>/)
  t.match(page, /href="\/accuracy\?path=sms&amp;node=spam">accuracy and calibration of spam<\/a>/)
})

t.test('the charts list the runs newest first, as the table does, each with its start on the axis', async (t) => {
  const page = runsPage(data, null).text
  const chart = page.slice(page.indexOf('<figure class="chart-bars">'))
  t.same(
    [...chart.matchAll(/<span class="date" title="(\w+)">([^<]+)<\/span>/g)].slice(0, 2).map((m) => [m[1], m[2]]),
    [
      ['r2', '2026-01-01 00:01:00'],
      ['r1', '2026-01-01 00:00:00'],
    ],
  )
  t.same(
    [...page.matchAll(/<a href="\/runs\/(\w+)\?/g)].map((m) => m[1]),
    ['r2'],
    "the table's order: newest first",
  )
})

t.test("runs of a simulated model carry a note saying their answers are not a real model's", async (t) => {
  t.notMatch(runsPage(data, null).text, /simulated/)
  const simulated = runsPage({ ...data, runs: [{ ...data.runs[0], model: 'simulated-1' }] }, null).text
  t.match(simulated, /<code>simulated-1<\/code>/)
  t.match(
    simulated,
    /<td class="num cost" data-label="cost">would cost \$0\.00021 on System One \(simulated: nothing spent\)<\/td>/,
    'its cost is what System One would have charged, as that',
  )
  t.match(simulated, /nothing was spent on them: their costs are what System One would have charged/)
  t.match(
    simulated,
    /<p class="alert">Runs of a <code>simulated-…<\/code> model hold simulated answers \(<code>ENGINE=simulated<\/code>\), not a real model's/,
  )
})

t.test('shadow candidates show their agreement with the live answers, and nothing shows without them', async (t) => {
  t.notMatch(runsPage(data, null).text, /Shadow candidates/)
  const shadowed: RunsData = {
    ...data,
    judgments: [
      {
        ...data.judgments[0],
        shadows: [
          {
            candidate: 'spam-v2',
            candidate_hash: 'c0ffee',
            question: 'is_spam',
            rows: 8,
            agree: 6,
            agreement: 0.75,
            last: '2026-11-22T01:00:00.000',
          },
        ],
      },
    ],
  }
  const page = runsPage(shadowed, null).text
  t.match(page, /<h4>Shadow candidates<\/h4>/)
  t.match(
    page,
    /<td><code>spam-v2<\/code><\/td><td><code>c0ffee<\/code><\/td><td><code>is_spam<\/code><\/td>\n<td class="num">8<\/td><td class="num">75\.0%<\/td>/,
  )
})

t.test('a change within the threshold is shown but not flagged, and no runs say so', async (t) => {
  const quiet: RunsData = {
    ...data,
    node: 'spam',
    runs: [],
    judgments: [
      {
        name: 'spam',
        drift: {
          q: [
            {
              run_id: 'a',
              rows: 1,
              shares: { x: 1 },
              change: null,
              alert: false,
              p_value: null,
              significant: false,
              same_data: null,
              other_data: null,
            },
            {
              run_id: 'b',
              rows: 1,
              shares: { x: 1 },
              change: 0.1,
              alert: false,
              p_value: 1,
              significant: false,
              same_data: null,
              other_data: null,
            },
          ],
        },
        like: {},
        labels: {},
        started: {},
        shadows: [],
      },
    ],
  }
  const page = runsPage(quiet, 'tok').text
  t.match(page, /<span class="muted">change 0\.100 since the previous run<\/span>/)
  t.notMatch(page, /class="alert"/)
  t.match(
    page,
    /No runs yet\. <code>judge run sms<\/code> judges the rows of the spec's data file and records one run per judgment/,
  )
  t.match(page, /<h1>Runs of <code>sms · spam<\/code><\/h1>/)
  t.match(page, /href="\/\?token=tok">All projects/)
})

t.test('GET /runs escapes labels, statuses and paths that hold markup, and sends the page headers', async (t) => {
  const dir = t.testdir({ 'evil.judge.yaml': EVIL_YAML })
  seedRuns(dir, [
    { judgment: 'evil', counts: { topic: { [EVIL]: 5, plain: 5 } } },
    { judgment: 'evil', counts: { topic: { [EVIL]: 9, plain: 1 } }, status: `failed: ${EVIL}`, model: EVIL },
  ])
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok' })
  const res = await server.get('/runs?path=evil.judge.yaml&token=tok')
  t.equal(res.status, 200)
  t.notMatch(res.text, /<script/i)
  t.match(res.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/)
  t.match(
    res.text,
    /change 0\.400 since run <code>\S+<\/code>, the previous complete <code>run<\/code> of <code>data\.csv<\/code>/,
  )
  t.equal(res.headers.get('content-type'), 'text/html; charset=utf-8')
  t.equal(
    res.headers.get('content-security-policy'),
    `default-src 'none'; script-src '${SCRIPT_HASH}'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  )
  t.equal(res.headers.get('referrer-policy'), 'no-referrer')
  t.equal(res.headers.get('x-content-type-options'), 'nosniff')
  t.equal(res.headers.get('x-frame-options'), 'DENY')
  const links = [...res.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1])
  t.ok(links.length >= 2 && links.every((l) => l.endsWith('token=tok')), 'links carry the token on')
  const drift = await server.get('/v1/drift?path=evil.judge.yaml&token=tok')
  t.same(drift.body.topic[1].shares, { [EVIL]: 0.9, plain: 0.1 }, 'the JSON twin gives the same data, unescaped')
})

t.test('GET /runs errors are pages: missing path 400, unknown node 400, outside 403', async (t) => {
  const dir = t.testdir({ 'evil.judge.yaml': EVIL_YAML })
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok' })
  for (const [query, status] of [
    ['', 400],
    ['?path=evil.judge.yaml&node=x', 400],
    ['?path=../x', 403],
    ['?path=nope', 404],
  ] as const) {
    const res = await server.get(`/runs${query}${query ? '&' : '?'}token=tok`)
    t.equal(res.status, status, query)
    t.match(res.headers.get('content-type'), /^text\/html/)
    t.equal(res.headers.get('x-frame-options'), 'DENY')
    t.match(res.text, new RegExp(`<h1>${status} `))
    t.match(res.text, /href="\/\?token=tok"/, 'the error page carries the token on')
  }
})
