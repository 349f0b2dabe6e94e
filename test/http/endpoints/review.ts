import t, { type Test } from 'tap'
import { REVIEW_SCRIPT } from '../../../src/http/pages/review-script.ts'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { SYSTEM_ONE_DEFAULT_MODEL } from '../../../src/adapters/system-one/system-one.ts'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { queueData } from '../../../src/app/review-data.ts'
import { spotChecksOf, reviewerOf } from '../../../src/http/endpoints/review.ts'
import { readKey } from '../../../src/adapters/files/key-file.ts'
import { readVerdicts, REVIEW_COLUMNS } from '../../../src/adapters/files/reviews-file.ts'
import { cli } from '../../helpers/cli.ts'
import { startJudgeServer, type JudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms, type VerdictForm } from '../../helpers/review-forms.ts'
import { EVIL_MESSAGE, hashOf, REVIEW_ROWS, REVIEW_YAML, reviewProject } from '../../helpers/review-project.ts'

const PAGE = '/review?path=spam.judge.yaml'

/** Posts a form to /review without following the redirect. */
async function post(server: JudgeServer, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
  return {
    status: res.status,
    location: res.headers.get('location'),
    type: res.headers.get('content-type'),
    text: await res.text(),
  }
}

async function forms(server: JudgeServer, query = ''): Promise<VerdictForm[]> {
  const res = await server.get(PAGE + query)
  if (res.status !== 200) throw new Error(res.text)
  return verdictForms(res.text)
}

/** The verdict lines of the project's reviews file, parsed; none when it does not exist. */
function lines(dir: string): Record<string, string>[] {
  const file = join(dir, 'spam.reviews.csv')
  return existsSync(file) ? parse(readFileSync(file), { columns: true }) : []
}

async function setup(t: Test, env: Record<string, string> = {}) {
  const project = await reviewProject(t)
  // No engine key: the queue must come from the store alone.
  const server = await startJudgeServer(t, project.dir, env)
  return { ...project, server }
}

t.test(
  'the review page offers disagreements, then spot checks, then unsure rows, each with the buttons that fit',
  async (t) => {
    const { server } = await setup(t)
    const res = await server.get(PAGE + '&audit=1')
    t.equal(res.status, 200)
    t.match(res.headers.get('content-security-policy'), /default-src 'none'/)
    const kinds = [...res.text.matchAll(/<span class="kind kind-(\w+)">[^<]+<\/span> <code>(\w+)<\/code>/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    )
    t.same(kinds, [
      'disagreement is_spam',
      'spot_check is_spam',
      'spot_check topic',
      'spot_check urgency',
      'unsure is_spam',
    ])
    const buttons = (kind: string, question = 'is_spam') =>
      verdictForms(res.text)
        .filter((f) => f.fields.kind === kind && f.fields.question === question)
        .map((f) => f.button)
    t.same(buttons('disagreement'), [
      'model is right',
      'answer key is right',
      'both acceptable',
      'needs more context',
      'ambiguous',
    ])
    t.same(buttons('spot_check', 'topic'), [
      'label is right',
      'it is promotion',
      'it is service',
      'needs more context',
      'ambiguous',
    ])
    t.same(buttons('unsure'), ['label is right', 'it is no', 'needs more context', 'ambiguous'])
    t.match(
      res.text,
      />1 disagrees with the key<\/a><\/li><li><a [^>]*>3 spot checks<\/a><\/li><li><a [^>]*>1 unsure<\/a><\/li>/,
    )
    const disagreement = verdictForms(res.text)[0].fields
    t.same(disagreement, {
      path: 'spam.judge.yaml',
      node: 'spam',
      question: 'is_spam',
      state: hashOf(REVIEW_ROWS[1].message),
      kind: 'disagreement',
      verdict: 'model_right',
      reviewer: '',
      audit: '1',
    })
  },
)

t.test('a state value holding markup is escaped on the page', async (t) => {
  const { server } = await setup(t)
  const res = await server.get(PAGE + '&audit=0')
  t.equal(res.text.split('<script>').length, 2, "no script but the page's own keys script")
  t.ok(res.text.includes(`<script>${REVIEW_SCRIPT}</script>`))
  t.match(res.text, /<td>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;quoted&#39;<\/td>/)
  t.ok(verdictForms(res.text).some((f) => f.fields.state === hashOf(EVIL_MESSAGE)))
})

t.test('a token given in the query is carried in every form; one given in a header never is', async (t) => {
  const { server } = await setup(t, { JUDGE_SERVER_TOKEN: 'tok-1' })
  t.equal((await server.get(PAGE)).status, 401)
  const page = await server.get(PAGE + '&audit=0&token=tok-1')
  t.ok(verdictForms(page.text).every((f) => f.fields.token === 'tok-1'))
  t.match(page.text, /<form method="get" action="\/review" class="settings">[\s\S]*name="token" value="tok-1"/)
  const viaHeader = await server.get(PAGE + '&audit=0', { authorization: 'Bearer tok-1' })
  t.notMatch(viaHeader.text, /tok-1/)
})

t.test('an accepted verdict writes exactly one line and sends the browser back to the same queue', async (t) => {
  const { dir, server } = await setup(t, { JUDGE_SERVER_TOKEN: 'tok-1' })
  const form = (await forms(server, '&audit=2&reviewer=ann&token=tok-1')).find(
    (f) => f.button === 'answer key is right',
  )!
  const res = await post(server, form.fields)
  t.equal(res.status, 303)
  t.equal(
    res.location,
    `/review?path=spam.judge.yaml&node=spam&reviewer=ann&audit=2&saved=is_spam%3A${hashOf(REVIEW_ROWS[1].message)}&token=tok-1#queue`,
  )
  const saved = lines(dir)
  t.equal(saved.length, 1)
  t.same(Object.keys(saved[0]), [...REVIEW_COLUMNS])
  t.match(saved[0], {
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: hashOf(REVIEW_ROWS[1].message),
    kind: 'disagreement',
    verdict: 'key_right',
    labels: '["no"]',
    model_label: 'yes',
    key_label: 'no',
    state: JSON.stringify({ message: REVIEW_ROWS[1].message }),
    reviewed_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/,
    stratum: /^(unsure|confident)$/,
  })
  const spot = (await forms(server, '&audit=2&reviewer=ann&token=tok-1')).find(
    (f) => f.fields.kind === 'spot_check' && f.button === 'label is right',
  )!
  t.equal((await post(server, spot.fields)).status, 303)
  t.match(
    lines(dir)[1],
    { kind: 'spot_check', stratum: 'confident', rank: /^[12]$/ },
    'a spot check records its stratum and its place in the rank order',
  )
  const after = await forms(server, '&audit=2&reviewer=ann&token=tok-1')
  t.notOk(
    after.some((f) => f.fields.state === form.fields.state && f.fields.question === 'is_spam'),
    'the row left the queue',
  )
  t.equal((await post(server, form.fields)).status, 409, 'the same verdict again is refused')
  t.equal(lines(dir).length, 2)
})

t.test('the reviewer is the X-Reviewer header, else the form field, else server', async (t) => {
  const { dir, server } = await setup(t)
  const [first, second, third] = (await forms(server, '&audit=3')).filter(
    (f) => f.fields.kind === 'spot_check' && f.button === 'label is right',
  )
  t.equal((await post(server, { ...first.fields, reviewer: 'ann' }, { 'x-reviewer': 'Zoë K.' })).status, 303)
  t.equal((await post(server, { ...second.fields, reviewer: 'bob@example.org' })).status, 303)
  const anonymous = await post(server, third.fields)
  t.equal(
    anonymous.location,
    `/review?path=spam.judge.yaml&node=spam&audit=3&saved=${third.fields.question}%3A${third.fields.state}#queue`,
    'no reviewer to carry back',
  )
  t.same(
    lines(dir).map((l) => l.reviewer),
    ['Zoë K.', 'bob@example.org', 'server'],
  )
})

t.test('forged, mismatched and malformed verdicts are refused and write nothing', async (t) => {
  const { dir, server } = await setup(t)
  const all = await forms(server, '&audit=2')
  const disagreement = all.find((f) => f.fields.kind === 'disagreement' && f.button === 'model is right')!.fields
  const spot = all.find((f) => f.fields.kind === 'spot_check' && f.button === 'label is right')!.fields
  const cases: [string, Record<string, string>, Record<string, string>, number, RegExp][] = [
    [
      'a forged state hash',
      { ...disagreement, state: '0123456789abcdef' },
      {},
      409,
      /does not offer row 0123456789abcdef/,
    ],
    ['a wrong kind', { ...spot, kind: 'unsure' }, {}, 409, /offers row \w+ as spot_check, not unsure/],
    [
      'a valid verdict of another kind',
      { ...spot, kind: 'disagreement', verdict: 'model_right' },
      {},
      409,
      /offers row \w+ as spot_check, not disagreement/,
    ],
    ['a row the queue leaves out at a smaller audit', { ...spot, audit: '0' }, {}, 409, /does not offer/],
    ['an unknown verdict', { ...disagreement, verdict: 'maybe' }, {}, 400, /unknown verdict &quot;maybe&quot;/],
    [
      'a verdict the kind does not take',
      { ...spot, verdict: 'model_right' },
      {},
      400,
      /does not apply to a spot_check row/,
    ],
    ['labeled without a label', { ...spot, verdict: 'labeled' }, {}, 400, /verdict labeled needs a label/],
    [
      'labeled with a label the question lacks',
      { ...spot, verdict: 'labeled', label: 'perhaps' },
      {},
      400,
      /verdict labeled needs a label/,
    ],
    [
      'a bad reviewer field',
      { ...spot, reviewer: '=cmd()' },
      {},
      400,
      /reviewer &quot;=cmd\(\)&quot; is not a reviewer name/,
    ],
    [
      'a bad X-Reviewer header',
      spot,
      { 'x-reviewer': '<b>' },
      400,
      /X-Reviewer &quot;&lt;b&gt;&quot; is not a reviewer name/,
    ],
    ['a missing state', { ...spot, state: '' }, {}, 400, /the form field state is required/],
    ['an audit that is not a number', { ...spot, audit: 'lots' }, {}, 400, /audit must be a whole number/],
    ['a path outside', { ...spot, path: '../x' }, {}, 403, /\.\. segment/],
    ['no path', { ...spot, path: '' }, {}, 400, /path is required/],
  ]
  for (const [what, fields, headers, status, message] of cases) {
    const res = await post(server, fields, headers)
    t.equal(res.status, status, what)
    t.match(res.type, /^text\/html/, `${what}: the error is a page`)
    t.match(res.text, message, what)
  }
  const json = await server.post('/review', { ...spot })
  t.match(json, { status: 400, text: /takes a form/ }, 'a JSON body is not a form')
  t.equal((await server.call('PUT', '/review')).status, 405)
  t.same(lines(dir), [], 'nothing was written')
})

t.test('fifty verdicts posted at once to one judgment all land, each exactly once', async (t) => {
  const { dir, server } = await setup(t)
  const spots = (await offeredQueue(dir)).filter((c) => c.kind === 'spot_check')
  t.match((await server.get(PAGE + '&reviewer=ann')).text, `>${spots.length} spot checks</a>`)
  // The page shows 25 rows; the other rows of the queue are posted as many open tabs would.
  const offered = spots.slice(0, 50)
  const fields = offered.map((c) => ({
    path: 'spam.judge.yaml',
    node: 'spam',
    question: c.question,
    state: c.stateHash,
    kind: c.kind,
    verdict: 'confirmed',
    reviewer: 'ann',
    audit: '30',
  }))
  const statuses = await Promise.all(fields.map((f) => post(server, f).then((r) => r.status)))
  t.same(
    statuses,
    fields.map(() => 303),
  )
  const saved = lines(dir)
  t.equal(saved.length, 50)
  t.same(
    new Set(saved.map((l) => `${l.question} ${l.state_hash}`)),
    new Set(fields.map((f) => `${f.question} ${f.state}`)),
  )
  t.equal(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8').match(/^reviewed_at,/gm)?.length, 1, 'one header')
  t.equal(
    (await offeredQueue(dir)).filter((c) => c.kind === 'spot_check').length,
    spots.length - 50,
    'the reviewed rows left the queue',
  )
})

/** The whole queue of the project at the default audit, read from its store as the server reads it. */
async function offeredQueue(dir: string) {
  const spec = loadProject(join(dir, 'spam.judge.yaml')).selected[0]
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  try {
    const source = {
      store,
      model: SYSTEM_ONE_DEFAULT_MODEL,
      spec,
      key: await readKey(spec, spec.key!),
      verdicts: await readVerdicts(spec.reviews),
    }
    return queueData(source, { spotChecks: 30 }).offered
  } finally {
    store.close()
  }
}

t.test('a verdict posted through the server counts in the next judge test', async (t) => {
  const { dir, env, server } = await setup(t)
  const before = JSON.parse((await cli(['test', 'spam.judge.yaml', '--json'], env, dir)).stdout).spam.is_spam
  t.match(before, { counted: 4, correct: 3, reviewed: 0, pending: 1 })
  const form = (await forms(server, '&reviewer=ann')).find((f) => f.button === 'model is right')!
  t.equal((await post(server, form.fields)).status, 303)
  const result = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(JSON.parse(result.stdout).spam.is_spam, { counted: 4, correct: 4, accuracy: 1, reviewed: 1, pending: 0 })
})

t.test('GET /review checks node, audit and reviewer, and errors are pages', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': REVIEW_YAML,
    'tone.judge.yaml': 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n',
    'spam.key.csv': 'message,is_spam\n',
  })
  const server = await startJudgeServer(t, dir)
  const cases: [string, number, RegExp][] = [
    ['/review?path=.', 400, /holds 2 judgments \(spam, tone\); name one with node/],
    ['/review?path=.&node=nope', 400, /unknown node &quot;nope&quot;/],
    ['/review?path=spam.judge.yaml&audit=abc', 400, /audit must be a whole number from 0 to 1000, not &quot;abc&quot;/],
    ['/review?path=spam.judge.yaml&audit=-1', 400, /audit must be a whole number/],
    ['/review?path=spam.judge.yaml&audit=1001', 400, /audit must be a whole number/],
    ['/review?path=spam.judge.yaml&reviewer=%3Dsum()', 400, /is not a reviewer name/],
    ['/review', 400, /path is required/],
    ['/review?path=/etc', 403, /not absolute/],
    ['/review?path=nothing.judge.yaml', 404, /does not exist/],
  ]
  for (const [path, status, message] of cases) {
    const res = await server.get(path)
    t.equal(res.status, status, path)
    t.match(res.headers.get('content-type'), /^text\/html/, path)
    t.match(res.text, message, path)
  }
  const tone = await server.get('/review?path=.&node=tone&audit=0&reviewer=ann')
  t.equal(tone.status, 200)
  t.match(tone.text, /<h2>Nothing to review<\/h2>/, 'no store yet: an empty queue')
  t.match(tone.text, /href="\/review\?path=\.&amp;node=spam&amp;reviewer=ann&amp;audit=0">review spam<\/a>/)
  t.notOk(existsSync(join(dir, '.judge')), 'reading the queue creates no store')
})

t.test(
  "an empty queue over a store holding only another model's answers says so, and the setting that reads them",
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': REVIEW_YAML,
      'messages.csv': 'message\nhi there\nWIN a prize\n',
      'spam.key.csv': 'message,is_spam\nhi there,no\n',
    })
    t.equal((await cli(['run', 'spam.judge.yaml'], { ENGINE: 'simulated' }, dir)).code, 0)
    const server = await startJudgeServer(t, dir)
    const page = await server.get('/review?path=spam.judge.yaml')
    t.equal(page.status, 200)
    t.match(
      page.text,
      `the queue reads the answers of model <code>${SYSTEM_ONE_DEFAULT_MODEL}</code>, and the store holds none to the questions of <code>spam</code>`,
    )
    t.match(
      page.text,
      /<li>6 answers of <code>simulated-1<\/code>: start the server with <code>ENGINE=simulated<\/code> to review them<\/li>/,
    )
    t.notMatch(page.text, /spot checks per question has a verdict/)
    t.match((await server.get('/v1/review?path=spam.judge.yaml')).body, {
      model: SYSTEM_ONE_DEFAULT_MODEL,
      model_answers: 0,
      other_models: [{ model: 'simulated-1', answers: 6, setting: 'ENGINE=simulated' }],
    })
    const simulated = await startJudgeServer(t, dir, { ENGINE: 'simulated' })
    t.match(
      (await simulated.get('/v1/review?path=spam.judge.yaml')).body,
      { model: 'simulated-1', model_answers: 6, other_models: [] },
      'with the setting, the queue reads them',
    )
  },
)

t.test('a reviews file that cannot be written, or a missing key, is a clear error', async (t) => {
  const { dir, server } = await setup(t)
  writeFileSync(join(dir, 'spam.judge.yaml'), REVIEW_YAML + 'reviews: missing/spam.csv\n')
  const form = (await forms(server)).find((f) => f.button === 'model is right')!
  const res = await post(server, form.fields)
  t.equal(res.status, 500)
  t.match(res.text, /cannot write the reviews file missing\/spam\.csv of spam: ENOENT; nothing was saved/)
  t.notMatch(res.text, new RegExp(dir))
  t.match(server.logs.join('\n'), /cannot write the reviews file missing\/spam\.csv/)
  rmSync(join(dir, 'spam.key.csv'))
  t.match(await server.get(PAGE), { status: 422, text: /the answer key named by spam\.judge\.yaml does not exist/ })
})

t.test('audit and reviewer parameters are read strictly', async (t) => {
  t.equal(spotChecksOf(null), 30)
  t.equal(spotChecksOf('0'), 0)
  t.equal(spotChecksOf('1000'), 1000)
  for (const bad of ['1e3', '2.5', ' 3', '0x10', '99999999999'])
    t.throws(() => spotChecksOf(bad), { status: 400, message: /audit must be a whole number/ }, bad)
  t.equal(reviewerOf(null, 'reviewer'), null)
  t.equal(reviewerOf('ann', 'reviewer'), 'ann')
  t.throws(() => reviewerOf('x'.repeat(65), 'reviewer'), { status: 400, message: /xxxx…"/ })
})

t.test("GET /v1/review is the page's data: the same cards in the same order, counts, page and progress", async (t) => {
  const { server } = await setup(t)
  // A named view holds its cards, which then leave the others' views: the named one comes last.
  for (const query of [
    '&kind=spot_check&question=topic&page=2',
    '&kind=unsure',
    `&row=${hashOf(REVIEW_ROWS[1].message)}`,
    '&reviewer=ann',
  ]) {
    const [page, json] = await Promise.all([
      server.get(PAGE + query),
      server.get(`/v1/review?path=spam.judge.yaml${query}`),
    ])
    t.equal(json.status, 200, query)
    t.match(json.headers.get('content-type'), /^application\/json/)
    const data = json.body
    const cards = verdictForms(page.text).filter(
      (f) =>
        f.fields.verdict ===
        data.cards.find((c: { state_hash: string }) => c.state_hash === f.fields.state)?.verdicts[0].verdict,
    )
    t.same(
      cards.map((f) => `${f.fields.kind} ${f.fields.question} ${f.fields.state}`),
      data.cards.map((c: Record<string, string>) => `${c.kind} ${c.question} ${c.state_hash}`),
      `${query}: the same cards`,
    )
    t.match(page.text, `<strong>${data.progress.left}</strong> left in the queue`, query)
    t.match(
      page.text,
      `>${data.left.unsure} unsure</a>`.replace(
        `>${data.left.unsure}`,
        `>${(data.filter.question ? data.left_by_question[data.filter.question] : data.left).unsure}`,
      ),
      query,
    )
    if (data.page.pages > 1) t.match(page.text, `Page ${data.page.number} of ${data.page.pages}`, query)
  }
  const twin = (await server.get('/v1/review?path=spam.judge.yaml&kind=spot_check&question=topic&page=2&reviewer=ann'))
    .body
  t.match(twin, {
    judgment: 'spam',
    filter: { kind: 'spot_check', question: 'topic', row: null },
    page: { number: 2, pages: 2, size: 25, total: 30, first: 26 },
  })
  t.equal(twin.cards.length, 5)
  t.ok(twin.cards.every((c: Record<string, string>) => c.kind === 'spot_check' && c.question === 'topic'))
  t.match(
    (await server.get('/v1/review?path=spam.judge.yaml&kind=nope')).body,
    { error: /kind must be disagreement, spot_check or unsure/ },
    'errors in JSON',
  )
})

t.test(
  'filters and pages: each kind and question alone, next and previous pages, and a verdict on page 2 comes back to it',
  async (t) => {
    const { dir, server } = await setup(t)
    const page1 = await server.get(PAGE + '&reviewer=ann')
    t.equal(
      verdictForms(page1.text).filter((f) => f.fields.verdict === 'confirmed' || f.fields.verdict === 'model_right')
        .length,
      25,
    )
    t.match(
      page1.text,
      /<a rel="next" href="\/review\?path=spam\.judge\.yaml&amp;node=spam&amp;reviewer=ann&amp;audit=30&amp;page=2">Next →<\/a>/,
    )
    const page4 = await server.get(PAGE + '&reviewer=ann&page=4')
    t.match(
      page4.text,
      /<a rel="prev" href="[^"]*page=3">← Previous<\/a><span>Page 4 of 4<\/span><span class="muted">Next →<\/span>/,
    )
    const onlyUnsure = verdictForms((await server.get(PAGE + '&kind=unsure&reviewer=ann')).text)
    t.same(
      [...new Set(onlyUnsure.map((f) => `${f.fields.kind} ${f.fields.state}`))],
      [`unsure ${hashOf(EVIL_MESSAGE)}`],
    )
    const topic = await server.get(PAGE + '&kind=spot_check&question=topic&page=2&reviewer=ann')
    const form = verdictForms(topic.text).find((f) => f.button === 'label is right')!
    t.match(form.fields, { filter_kind: 'spot_check', filter_question: 'topic', page: '2' })
    const res = await post(server, form.fields)
    t.equal(res.status, 303)
    t.equal(
      res.location,
      `/review?path=spam.judge.yaml&node=spam&reviewer=ann&audit=30&kind=spot_check&question=topic&page=2&saved=topic%3A${form.fields.state}#queue`,
    )
    const back = await server.get(res.location!)
    t.match(back.text, /Saved: <strong>label is right<\/strong>/)
    t.match(back.text, /<strong>1<\/strong> reviewed today by <strong>ann<\/strong>/)
    t.equal(lines(dir).length, 1)
  },
)

t.test('filter, page and banner parameters are checked', async (t) => {
  const { server } = await setup(t)
  const cases: [string, RegExp][] = [
    ['&kind=all', /kind must be disagreement, spot_check or unsure, not &quot;all&quot;/],
    ['&question=nope', /question &quot;nope&quot; is not a question of spam \(is_spam, topic, urgency\)/],
    ['&row=xyz', /row must be a state hash of 16 hex digits/],
    ['&page=0', /page must be a whole number from 1 to 400/],
    ['&page=401', /page must be a whole number from 1 to 400/],
    ['&saved=is_spam', /saved must name a row as question:state_hash/],
    ['&undone=a:b', /undone must name a row as question:state_hash/],
  ]
  for (const [query, message] of cases) t.match(await server.get(PAGE + query), { status: 400, text: message }, query)
})

t.test(
  'undo: a retraction line is appended, nothing is edited, the row is back and judge test no longer counts it',
  async (t) => {
    const { dir, env, server } = await setup(t, { JUDGE_SERVER_TOKEN: 'tok-u' })
    const form = (await forms(server, '&reviewer=ann&token=tok-u')).find((f) => f.button === 'model is right')!
    const saved = await post(server, form.fields)
    const page = await server.get(saved.location!)
    const undo = [...page.text.matchAll(/<form method="post" action="\/review\/undo">(.*?)<\/form>/g)].map((m) =>
      Object.fromEntries([...m[1].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((f) => [f[1], f[2]])),
    )
    t.equal(undo.length, 1, 'one undo form')
    t.match(undo[0], {
      question: 'is_spam',
      state: form.fields.state,
      reviewed_at: lines(dir)[0].reviewed_at,
      token: 'tok-u',
      reviewer: 'ann',
    })
    const before = readFileSync(join(dir, 'spam.reviews.csv'), 'utf8')
    const res = await postTo(server, '/review/undo', undo[0])
    t.equal(res.status, 303)
    t.equal(
      res.location,
      `/review?path=spam.judge.yaml&node=spam&reviewer=ann&audit=30&undone=is_spam%3A${form.fields.state}&token=tok-u#queue`,
    )
    const after = readFileSync(join(dir, 'spam.reviews.csv'), 'utf8')
    t.ok(after.startsWith(before), 'the verdict line is untouched')
    t.match(lines(dir), [
      { verdict: 'model_right' },
      { verdict: 'retracted', labels: '[]', reviewer: 'ann', state_hash: form.fields.state },
    ])
    const back = await server.get(res.location!)
    t.match(
      back.text,
      /Undone: the verdict on <code>is_spam<\/code>, row <code>[0-9a-f]{16}<\/code>, is withdrawn; it is back in the queue\./,
    )
    t.ok(
      verdictForms(back.text).some((f) => f.fields.state === form.fields.state && f.fields.kind === 'disagreement'),
      'offered again',
    )
    t.equal((await postTo(server, '/review/undo', undo[0])).status, 409, 'an undo of a verdict undone already')
    t.equal(lines(dir).length, 2)
    const test = JSON.parse((await cli(['test', 'spam.judge.yaml', '--json'], env, dir)).stdout).spam.is_spam
    t.match(test, { reviewed: 0, pending: 1 }, 'judge test no longer counts it')
    t.match(await postTo(server, '/review/undo', { ...undo[0], reviewed_at: '' }), {
      status: 400,
      text: /the form field reviewed_at is required/,
    })
    t.match(await server.post('/review/undo?token=tok-u', {}), {
      status: 400,
      text: /POST \/review\/undo takes a form/,
    })
  },
)

/** Posts a form to a path of the server without following the redirect. */
async function postTo(server: JudgeServer, path: string, fields: Record<string, string>) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

t.test('a row opened by its state hash shows its cards alone; a verdict on it comes back to it', async (t) => {
  const { dir, server } = await setup(t)
  const row = hashOf(EVIL_MESSAGE)
  const all = verdictForms((await server.get(`${PAGE}&row=${row}`)).text)
  t.ok(all.length > 0 && all.every((f) => f.fields.state === row), "only that row's cards")
  t.ok(all.some((f) => f.fields.question === 'is_spam' && f.fields.kind === 'unsure'))
  const page = await server.get(`${PAGE}&row=${row}&question=is_spam&reviewer=ann`)
  const form = verdictForms(page.text).find((f) => f.button === 'label is right')!
  t.match(form.fields, { kind: 'unsure', state: row, filter_row: row, filter_question: 'is_spam' })
  const res = await post(server, form.fields)
  t.equal(res.status, 303)
  t.match(res.location, `row=${row}`)
  t.match((await server.get(res.location!)).text, /<h2>This row is not waiting for a verdict<\/h2>/)
  t.match(lines(dir), [{ state_hash: row, kind: 'unsure' }])
})
