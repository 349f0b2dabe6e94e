import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { runPageOf } from '../../../src/http/page-data/run.ts'
import { percent } from '../../../src/format.ts'
import { escapeHtml } from '../../../src/http/html.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { hashOf, REVIEW_ROWS, reviewProject } from '../../helpers/review-project.ts'
import { verdictForms } from '../../helpers/review-forms.ts'

t.test("the page of a run's rows is a whole number from 1", async (t) => {
  t.equal(runPageOf(null), 1)
  t.equal(runPageOf('12'), 12)
  for (const bad of ['0', '-1', '1.5', 'x', '1234567890'])
    t.throws(() => runPageOf(bad), { status: 400, message: /page must be a whole number from 1/ }, bad)
})

t.test(
  'a run opens from the runs page; its page and GET /v1/runs/{run_id} show the same run, counts and rows',
  async (t) => {
    const { dir } = await reviewProject(t)
    const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-r' })
    const runs = await server.get('/runs?path=spam.judge.yaml&token=tok-r')
    const link = /<a href="(\/runs\/([^?"]+)\?path=spam\.judge\.yaml&amp;token=tok-r)"><code>/.exec(runs.text)!
    t.ok(link, 'the run id links to its page')
    const runId = link[2]
    const [page, json] = await Promise.all([
      server.get(link[1].replace(/&amp;/g, '&')),
      server.get(`/v1/runs/${runId}?path=spam.judge.yaml`, { authorization: 'Bearer tok-r' }),
    ])
    t.equal(page.status, 200)
    t.equal(json.status, 200)
    const data = json.body
    t.match(data, {
      path: 'spam.judge.yaml',
      run: { run_id: runId, judgment: 'spam', rows: REVIEW_ROWS.length },
      states: REVIEW_ROWS.length,
      spec_changed: false,
      page: { number: 1, pages: 1, size: 50, first: 1 },
    })
    t.match(page.text, `<h1>Run <code>${runId}</code></h1>`)
    t.match(page.text, `${data.run.rows} <span class="muted">(${data.states} distinct states)</span>`)
    for (const [question, counts] of Object.entries<Record<string, number>>(data.labels)) {
      for (const [label, n] of Object.entries(counts))
        t.match(
          page.text,
          `<tr><td>${escapeHtml(label)}</td><td class="num">${n}</td><td class="num">${percent(n / data.run.rows)}</td></tr>`,
          `${question} ${label}`,
        )
    }
    t.same(
      data.run.routes,
      { is_spam: { block: 1, review: 1, deliver: REVIEW_ROWS.length - 2 } },
      'rows per act route: the sure spam blocked, the unsure row to review',
    )
    t.match(
      page.text,
      `<tr><td>deliver</td><td class="num">${REVIEW_ROWS.length - 2}</td><td class="num">${percent((REVIEW_ROWS.length - 2) / REVIEW_ROWS.length)}</td></tr>`,
    )
    const shown = [...page.text.matchAll(/<tr><td><code class="hash">([0-9a-f]{16})<\/code><\/td>/g)].map((m) => m[1])
    t.same(
      shown,
      data.rows.map((r: { state_hash: string }) => r.state_hash),
      'the same rows in the same order',
    )
    const evil = data.rows.find((r: { state_hash: string }) => r.state_hash === hashOf(REVIEW_ROWS[2].message))
    t.match(evil, {
      rows: 1,
      state: { message: REVIEW_ROWS[2].message },
      answers: { is_spam: { label: 'yes', p: 0.55, verdict: null } },
    })
    t.match(page.text, escapeHtml(REVIEW_ROWS[2].message), 'values escaped')
    t.notMatch(page.text, /<script>/)
    t.match(
      page.text,
      `<strong>yes</strong> 55.0%</span> <a href="/review?path=spam.judge.yaml&amp;node=spam&amp;question=is_spam&amp;row=${evil.state_hash}&amp;token=tok-r">review</a>`,
    )
  },
)

t.test('a review link opens the row in the queue; once reviewed, the run page says so', async (t) => {
  const { dir } = await reviewProject(t)
  const server = await startJudgeServer(t, dir)
  const runId = (await server.get('/v1/runs?path=spam.judge.yaml')).body[0].run_id
  const row = hashOf(REVIEW_ROWS[2].message)
  const review = await server.get(`/review?path=spam.judge.yaml&node=spam&question=is_spam&row=${row}&reviewer=ann`)
  const form = verdictForms(review.text).find((f) => f.button === 'label is right')!
  t.match(form.fields, { state: row, kind: 'unsure' })
  const posted = await fetch(`${server.url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(form.fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(posted.status, 303)
  const data = (await server.get(`/v1/runs/${runId}?path=spam.judge.yaml`)).body
  t.same(data.rows.find((r: { state_hash: string }) => r.state_hash === row).answers.is_spam.verdict, {
    verdict: 'confirmed',
    text: 'label is right',
  })
  t.match(
    (await server.get(`/runs/${runId}?path=spam.judge.yaml`)).text,
    /<span class="good">reviewed: label is right<\/span>/,
  )
})

t.test(
  'a run that does not exist is a 404, a bad page a 400, in JSON under /v1/ and as a page elsewhere',
  async (t) => {
    const { dir } = await reviewProject(t)
    const server = await startJudgeServer(t, dir)
    t.match(await server.get('/v1/runs/nope?path=spam.judge.yaml'), {
      status: 404,
      body: { error: /no run "nope" of spam/ },
    })
    t.match(await server.get('/runs/nope?path=spam.judge.yaml'), { status: 404, text: /<h1>404 Not Found<\/h1>/ })
    const runId = (await server.get('/v1/runs?path=spam.judge.yaml')).body[0].run_id
    t.match(await server.get(`/v1/runs/${runId}?path=spam.judge.yaml&page=0`), {
      status: 400,
      body: { error: /page must be a whole number from 1/ },
    })
    t.match(await server.get(`/v1/runs/${runId}`), { status: 400, body: { error: /path is required/ } })
    t.equal((await server.post(`/v1/runs/${runId}?path=spam.judge.yaml`, {})).status, 405)
  },
)

t.test('a run whose row list was pruned says so on its page and in its JSON, its counts kept', async (t) => {
  const { dir } = await reviewProject(t)
  const server = await startJudgeServer(t, dir)
  const [{ run_id: runId }] = (await server.get('/v1/runs?path=spam.judge.yaml')).body
  const before = (await server.get(`/v1/runs/${runId}?path=spam.judge.yaml`)).body
  t.equal(before.rows_pruned, false)
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  t.equal(store.deleteRunStates([runId]), REVIEW_ROWS.length)
  store.close()
  const [page, json] = await Promise.all([
    server.get(`/runs/${runId}?path=spam.judge.yaml`),
    server.get(`/v1/runs/${runId}?path=spam.judge.yaml`),
  ])
  t.match(json.body, {
    rows_pruned: true,
    rows: [],
    states: REVIEW_ROWS.length,
    labels: before.labels,
    run: before.run,
  })
  t.match(
    page.text,
    `This run's list of rows was pruned (<code>judge runs --prune</code>): its ${REVIEW_ROWS.length} distinct states are counted above but no longer listed.`,
  )
  t.notMatch(page.text, /class="run-rows/, 'no empty table of rows')
})
