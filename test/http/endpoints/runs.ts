import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { PROVENANCE_FIELDS, RUN_FIELDS } from '../../../src/app/runs.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'
const mix = (yes: number, no: number) => ({
  is_spam: { yes, no },
  topic: { personal: yes, promotion: no },
  urgency: { low: yes + no },
})

t.test(
  'GET /v1/runs gives at most 50 run records, newest first, with the seed fields then what each ran on',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const seeded = seedRuns(
      dir,
      Array.from({ length: 55 }, (_, i) => ({
        judgment: 'spam',
        counts: mix(i, 100 - i),
        status: i === 54 ? 'failed: engine answered 500: overloaded' : undefined,
      })),
    )
    const server = await startJudgeServer(t, dir)
    const res = await server.get('/v1/runs?path=spam.judge.yaml')
    t.equal(res.status, 200)
    t.equal(res.body.length, 50)
    t.same(
      res.body.map((r: any) => r.run_id),
      seeded
        .slice(5)
        .reverse()
        .map((r) => r.run_id),
    )
    for (const run of res.body) {
      t.same(Object.keys(run), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
      t.match(run, {
        run_id: /^\d{8}T\d{6}Z-[0-9a-z]{6}$/,
        judgment: 'spam',
        spec_hash: String,
        git_sha: String,
        model: String,
        rows: Number,
        asked: Number,
        cost: Number,
        status: /^(complete|failed: .+)$/,
        started_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/,
        finished_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/,
      })
      t.ok(Number.isInteger(run.rows) && Number.isInteger(run.asked))
    }
    t.equal(res.body[0].status, 'failed: engine answered 500: overloaded')
  },
)

t.test('GET /v1/runs covers every judgment of a folder, or the one named by node', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  seedRuns(dir, [
    { judgment: 'spam', counts: mix(1, 1) },
    { judgment: 'tone', counts: { tone: { yes: 2 } } },
    { judgment: 'gone', counts: {} },
  ])
  const server = await startJudgeServer(t, dir)
  t.same(
    (await server.get('/v1/runs?path=.')).body.map((r: any) => r.judgment),
    ['tone', 'spam'],
  )
  t.same(
    (await server.get('/v1/runs?path=.&node=spam')).body.map((r: any) => r.judgment),
    ['spam'],
  )
  t.same(
    (await server.get('/v1/runs?path=tone.judge.yaml')).body.map((r: any) => r.judgment),
    ['tone'],
  )
  t.match(await server.get('/v1/runs?path=.&node=gone'), { status: 400, body: { error: /unknown node "gone"/ } })
  t.match(await server.get('/v1/runs'), { status: 400, body: { error: /path is required/ } })
  t.match(await server.get('/v1/runs?path='), { status: 400, body: { error: /path is required/ } })
})

t.test(
  'GET /v1/drift gives each question its runs oldest first, the first change null, alerts only above 0.10',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const seeded = seedRuns(dir, [
      { judgment: 'spam', counts: mix(50, 50) },
      { judgment: 'spam', counts: mix(60, 40) },
      { judgment: 'spam', counts: mix(75, 25) },
      { judgment: 'spam', counts: mix(75, 25) },
    ])
    const server = await startJudgeServer(t, dir)
    const res = await server.get('/v1/drift?path=spam.judge.yaml')
    t.equal(res.status, 200)
    t.same(Object.keys(res.body), ['is_spam', 'topic', 'urgency'])
    const entries = res.body.is_spam
    t.same(
      entries.map((e: any) => e.run_id),
      seeded.map((r) => r.run_id),
      'oldest first',
    )
    t.same(
      entries.map((e: any) => e.change),
      [null, 0.1, 0.15, 0],
    )
    t.same(
      entries.map((e: any) => e.alert),
      [false, false, true, false],
      'exactly 0.10 is no alert; 0.15 is',
    )
    for (const entry of entries) {
      t.same(
        Object.keys(entry),
        ['run_id', 'rows', 'shares', 'change', 'alert', 'p_value', 'significant', 'same_data', 'other_data'],
        "the interface's fields in its order, then the two comparisons",
      )
      t.equal(entry.rows, 100)
      t.ok(Number.isInteger(entry.rows))
      t.equal(
        Object.values<number>(entry.shares).reduce((a, b) => a + b, 0),
        1,
        'shares sum to 1',
      )
    }
    t.same(entries[1].shares, { yes: 0.6, no: 0.4 })
    t.same(
      res.body.urgency.map((e: any) => e.change),
      [null, 0, 0, 0],
    )
  },
)

t.test(
  'GET /v1/drift and its like-runs form give a p value far below 1e-9 at full precision, not rounded to 0',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    seedRuns(dir, [
      { judgment: 'spam', counts: mix(100, 900) },
      { judgment: 'spam', counts: mix(300, 700) },
    ])
    const server = await startJudgeServer(t, dir)
    for (const path of ['/v1/drift?path=spam.judge.yaml', '/v1/drift?path=spam.judge.yaml&completed=true']) {
      const { p_value, significant } = (await server.get(path)).body.is_spam[1]
      t.ok(p_value > 0 && p_value < 1e-9 && significant, `${path}: p ${p_value}`)
      t.not(p_value, Math.round(p_value * 1e9) / 1e9, 'more than nine decimals')
    }
  },
)

t.test('GET /v1/drift needs node for a folder of several judgments and refuses an unknown one', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  seedRuns(dir, [{ judgment: 'tone', counts: { tone: { yes: 3, no: 1 } } }])
  const server = await startJudgeServer(t, dir)
  t.match(await server.get('/v1/drift?path=.'), {
    status: 400,
    body: { error: /holds 2 judgments \(spam, tone\); name one with node/ },
  })
  t.match(await server.get('/v1/drift?path=.&node=nope'), { status: 400, body: { error: /unknown node "nope"/ } })
  t.same((await server.get('/v1/drift?path=.&node=tone')).body, {
    tone: [
      {
        run_id: String((await server.get('/v1/runs?path=.')).body[0].run_id),
        rows: 4,
        shares: { yes: 0.75, no: 0.25 },
        change: null,
        alert: false,
        p_value: null,
        significant: false,
        same_data: null,
        other_data: null,
      },
    ],
  })
  t.same(
    (await server.get('/v1/drift?path=.&node=spam')).body,
    { is_spam: [], topic: [], urgency: [] },
    'every question, with no runs',
  )
})

t.test('reading runs and drift of a project without a store creates no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  t.same((await server.get('/v1/runs?path=spam.judge.yaml')).body, [])
  t.same((await server.get('/v1/drift?path=spam.judge.yaml')).body, { is_spam: [], topic: [], urgency: [] })
  t.equal((await server.get('/runs?path=spam.judge.yaml')).status, 200)
  t.equal((await server.get('/')).status, 200)
  t.notOk(existsSync(join(dir, '.judge')))
})

t.test(
  "GET /v1/runs-page is the runs page's data: the same runs, drift, dates and shadows as the page shows",
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
    seedRuns(dir, [
      { judgment: 'spam', counts: mix(1, 9) },
      { judgment: 'tone', counts: { tone: { yes: 2 } } },
      { judgment: 'spam', counts: mix(6, 4) },
    ])
    const server = await startJudgeServer(t, dir)
    const [page, json] = await Promise.all([server.get('/runs?path=.'), server.get('/v1/runs-page?path=.')])
    t.equal(json.status, 200)
    const data = json.body
    t.same(data.runs, (await server.get('/v1/runs?path=.')).body, 'the runs of GET /v1/runs')
    t.same(
      [...page.text.matchAll(/<a href="\/runs\/([^?"]+)\?path=\.">/g)].map((m) => m[1]),
      data.runs.map((r: { run_id: string }) => r.run_id),
    )
    t.same(
      data.judgments.map((j: { name: string }) => j.name),
      ['spam', 'tone'],
    )
    const spam = data.judgments[0]
    t.same(spam.drift, (await server.get('/v1/drift?path=.&node=spam')).body, 'the drift of GET /v1/drift')
    const dates = [...page.text.matchAll(/<span class="date" title="([^"]+)">([^<]+)<\/span>/g)]
      .slice(0, 2)
      .map((m) => [m[1], m[2]])
    t.same(
      dates,
      spam.drift.is_spam
        .slice()
        .reverse()
        .map((e: { run_id: string }) => [e.run_id, spam.started[e.run_id].slice(0, 19).replace('T', ' ')]),
      'newest first, dated',
    )
    t.match(data, { path: '.', node: null, judgments: [{ labels: { is_spam: ['yes', 'no'] }, shadows: [] }] })
    t.match(await server.get('/v1/runs-page'), { status: 400, body: { error: /path is required/ } })
  },
)

t.test(
  'GET /v1/drift with command, source or completed compares like runs; without them, every run as the interface says',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const seeded = seedRuns(dir, [
      { judgment: 'spam', counts: mix(10, 90) },
      { judgment: 'spam', counts: mix(40, 60), source: 'later.csv' },
      { judgment: 'spam', counts: mix(90, 10), status: 'failed: interrupted' },
      { judgment: 'spam', counts: mix(10, 90) },
    ])
    const server = await startJudgeServer(t, dir)
    const every = (await server.get('/v1/drift?path=spam.judge.yaml')).body.is_spam
    t.same(
      every.map((e: any) => e.change),
      [null, 0.3, 0.5, 0.8],
      'every run against the previous one, whatever it ran on',
    )
    t.same(
      every.map((e: any) => e.alert),
      [false, true, true, true],
    )
    const like = (await server.get('/v1/drift?path=spam.judge.yaml&command=run&source=data.csv')).body.is_spam
    t.same(
      like.map((e: any) => [e.run_id, e.baseline, e.change, e.alert, e.status]),
      [
        [seeded[0].run_id, null, null, false, 'complete'],
        [seeded[2].run_id, seeded[0].run_id, 0.8, false, 'failed: interrupted'],
        [seeded[3].run_id, seeded[0].run_id, 0, false, 'complete'],
      ],
      'a failed run is shown, never alerts and is never a baseline',
    )
    t.match(like[2], {
      command: 'run',
      source: 'data.csv',
      reported_model: 'jev-1.13.0',
      model_change: 0,
      data_change: 0,
    })
    t.same(
      (await server.get('/v1/drift?path=spam.judge.yaml&completed=true')).body.is_spam.map((e: any) => e.run_id),
      [seeded[0].run_id, seeded[1].run_id, seeded[3].run_id],
    )
    t.same(
      (await server.get('/v1/drift?path=spam.judge.yaml&source=later.csv')).body.urgency.map((e: any) => e.baseline),
      [null],
    )
    t.match(await server.get('/v1/drift?path=spam.judge.yaml&completed=yes'), {
      status: 400,
      body: { error: 'completed must be true or false, not "yes"' },
    })
    const page = (await server.get('/runs?path=spam.judge.yaml')).text
    t.match(page, /<h4>Like runs<\/h4>/)
    t.match(page, /<h5><code>run<\/code> of <code>data\.csv<\/code><\/h5>/)
    t.match(page, /<h5><code>run<\/code> of <code>later\.csv<\/code><\/h5>/)
    t.match(
      page,
      `<h4><code>is_spam</code> <span class="muted">same data: change 0.000 since run <code>${seeded[0].run_id}</code>, the previous complete <code>run</code> of <code>data.csv</code></span>` +
        ` <span class="alert other-data">· drift: other data: change 0.300 since run <code>${seeded[1].run_id}</code>, the previous complete <code>run</code> of <code>later.csv</code>; the data moved, above 0.10 (p &lt; 0.001)</span></h4>`,
      'each card leads with the change between like runs, then the change on other data',
    )
    t.match(
      page,
      /<span class="flag" title="change 0\.800 above 0\.10">drift<\/span>/,
      "the interface's every-run drift stays in the chart",
    )
  },
)

t.test("GET /v1/runs gives what each run ran on after the interface's fields", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  seedRuns(dir, [{ judgment: 'spam', counts: mix(1, 2), source: 'later.csv', model: 'jev-2' }])
  const server = await startJudgeServer(t, dir)
  const [run] = (await server.get('/v1/runs?path=spam.judge.yaml')).body
  t.same(Object.keys(run), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
  t.match(run, {
    command: 'run',
    source: 'later.csv',
    source_hash: '',
    node: 'spam',
    reported_model: 'jev-2',
    states: 3,
  })
})
