import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { ROUTES } from '../src/http/routes.ts'
import { cli } from './helpers/cli.ts'
import { openapi, openapiAjv, pathItem, pointer, problems, responsePointer, validatorAt } from './helpers/openapi.ts'
import { startJudgeServer, type Response } from './helpers/judge-server.ts'
import { seedRuns } from './helpers/seed-runs.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { writeAccuracyProject } from './helpers/accuracy-project.ts'
import { addReasks } from './helpers/stability-reasks.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

type Schema = Record<string, any>

const spec = openapi
const ajv = openapiAjv()
const schemaOf = (name: string) => validatorAt(ajv, pointer('components', 'schemas', name))
/** The problems Ajv finds with a response to `method path` of `status`, against the schema the document gives it. */
const check = (value: unknown, method: string, path: string, status: number) =>
  problems(validatorAt(ajv, responsePointer(method, path, status)), value)

t.test('every schema of the document compiles under strict JSON Schema 2020-12', async (t) => {
  for (const name of Object.keys(spec.components.schemas)) t.doesNotThrow(() => schemaOf(name), name)
  for (const path of Object.keys(spec.paths))
    for (const [method, operation] of Object.entries<Schema>(pathItem(path)))
      for (const status of Object.keys(operation.responses))
        t.doesNotThrow(
          () => validatorAt(ajv, responsePointer(method, path, Number(status))),
          `${method} ${path} ${status}`,
        )
  const misquoted = structuredClone(spec)
  misquoted.components.schemas.Answer.properties.p = { type: 'number', description: 'A', 'the rest of it.': null }
  t.throws(
    () => validatorAt(openapiAjv(misquoted), pointer('components', 'schemas', 'Answer')),
    /unknown keyword: "the rest of it."/,
    'a description cut at a comma in a flow mapping is an unknown keyword',
  )
})

t.test('a value that lacks a field, has one too many or one of the wrong type or range does not match', async (t) => {
  const request = schemaOf('JudgeRequest')
  t.same(problems(request, { path: 'a', row: {}, node: null, log: true }), [])
  t.same(problems(request, { path: 'a', rows: {} }), [
    "$ must have required property 'row'",
    '$ must NOT have additional properties ("rows")',
  ])
  t.same(problems(request, { path: 1, row: [] }), ['$/path must be string', '$/row must be object'])
  t.same(
    problems(schemaOf('DriftEntry'), {
      run_id: 'r',
      rows: 1.5,
      shares: { a: '1' },
      change: null,
      alert: false,
      p_value: null,
      significant: false,
    }),
    ['$/rows must be integer', '$/shares/a must be number'],
  )
  t.same(problems(schemaOf('StratumCounts'), { unsure: -1, confident: 2 }), ['$/unsure must be >= 0'])
  t.same(
    check({ error: 1, extra: true }, 'GET', '/v1/runs-page', 400),
    [
      "$ must have required property 'name'",
      '$ must NOT have additional properties ("extra")',
      '$/error must be string',
    ],
    "a reply of an earlier URL, described by a shared response of the page's twin",
  )
})

t.test('the document describes exactly the JSON routes the server has', async (t) => {
  const documented = Object.keys(spec.paths).flatMap((path) =>
    Object.keys(pathItem(path)).map((m) => `${m.toUpperCase()} ${path}`),
  )
  const served = ROUTES.filter((r) => r.path.startsWith('/v1/')).map((r) => `${r.method} ${r.path}`)
  t.same(documented.sort(), served.sort())
  t.equal(spec.openapi, '3.1.0')
})

t.test('real responses of every JSON endpoint, for every documented status, match the document', async (t) => {
  const candidate = SPAM_YAML.replace('Is this message unsolicited advertising or a scam?', 'Is this message spam?')
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_YAML,
    cand: { 'spam.judge.yaml': candidate },
    'notes.txt': 'no spec',
    harmed: { 'spam.judge.yaml': SPAM_YAML, cand: { 'spam.judge.yaml': candidate }, '.judge': {} },
    broken: { 'bad.judge.yaml': 'questions: [' },
    two: {
      'a.judge.yaml': SPAM_YAML.replace('name: spam', 'name: a'),
      'b.judge.yaml': SPAM_YAML.replace('name: spam', 'name: b'),
    },
  })
  const seeded = seedRuns(
    dir,
    Array.from({ length: 52 }, (_, i) => ({
      judgment: 'spam',
      counts: { is_spam: { yes: i, no: 60 - i }, topic: { personal: 60 } },
      source: i === 10 ? 'later.csv' : undefined,
      status: i === 20 ? 'failed: interrupted' : undefined,
      model: i === 51 ? 'jev-2' : undefined,
    })),
  )
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  store.recordModelCheck({
    run_id: seeded[51].run_id,
    baseline: seeded[50].run_id,
    old_model: 'jev-1.13.0',
    new_model: 'jev-2',
    rows_from: 'sample',
    states: 4,
    same_rows: false,
    stopped: '',
    asked: 0,
    cost: 0,
    pairs: [
      { question: 'is_spam', old_label: 'no', new_label: 'yes', rows: 1 },
      { question: 'is_spam', old_label: 'no', new_label: 'no', rows: 3 },
    ],
  })
  store.close()
  const engine = await startSystemOneServer({ expectKey: 'k', optionMass: (name) => (name === 'topic' ? 0.2 : 0.9) })
  const failing = await startSystemOneServer({ failTimes: 99, status: 400, errorMessage: 'bad request' })
  t.teardown(() => Promise.all([engine.close(), failing.close()]))
  const token = { JUDGE_SERVER_TOKEN: 'tok' }
  const auth = { authorization: 'Bearer tok' }
  const server = await startJudgeServer(t, dir, {
    ...token,
    ENGINE_URL: engine.url,
    ENGINE_API_KEY: 'k',
    ENGINE_RPM: '0',
  })
  const keyless = await startJudgeServer(t, dir, token)
  const broken = await startJudgeServer(t, dir, {
    ...token,
    ENGINE_URL: failing.url,
    ENGINE_API_KEY: 'k',
    ENGINE_RPM: '0',
  })
  const row = { message: 'Free entry in 2 a wkly comp' }
  const judge = (s: typeof server, body: unknown) => s.call('POST', '/v1/judge', { body, headers: auth })
  const seen: Record<string, Set<number>> = {}
  const expect = async (method: string, path: string, response: Promise<Response>, status: number) => {
    const res = await response
    t.equal(res.status, status, `${method} ${path} ${status}`)
    t.same(check(res.body, method, path, status), [], `${method} ${path} ${status} matches its schema`)
    ;(seen[`${method} ${path}`] ??= new Set()).add(status)
    return res
  }
  const big = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'x'.repeat(1024 * 1024) } })

  await expect('POST', '/v1/judge', judge(server, { path: 'spam.judge.yaml', row }), 200)
  await expect('POST', '/v1/judge', judge(server, { path: 'two', row }), 400)
  await expect('POST', '/v1/judge', server.post('/v1/judge', { path: 'spam.judge.yaml', row }), 401)
  await expect('POST', '/v1/judge', judge(server, { path: '../x', row }), 403)
  await expect('POST', '/v1/judge', judge(server, { path: 'nope', row }), 404)
  await expect('POST', '/v1/judge', server.get('/v1/judge', auth), 405)
  await expect('POST', '/v1/judge', server.call('POST', '/v1/judge', { body: big, headers: auth }), 413)
  await expect('POST', '/v1/judge', judge(server, { path: 'notes.txt', row }), 422)
  await expect(
    'POST',
    '/v1/judge',
    judge(broken, { path: 'spam.judge.yaml', row: { message: 'new to the store' } }),
    502,
  )
  await expect('POST', '/v1/judge', judge(keyless, { path: 'spam.judge.yaml', row: { message: 'also new' } }), 503)

  const runs = await expect('GET', '/v1/runs', server.get('/v1/runs?path=spam.judge.yaml', auth), 200)
  t.equal(runs.body.length, 50)
  const { run_id, ...lacking } = runs.body[0]
  t.same(
    check([lacking, { ...runs.body[1], rows: String(runs.body[1].rows) }], 'GET', '/v1/runs', 200),
    ["$/0 must have required property 'run_id'", '$/1/rows must be integer'],
    'a live reply without a required field, or with a field of the wrong type, does not match',
  )
  await expect('GET', '/v1/runs', server.get('/v1/runs', auth), 400)
  await expect('GET', '/v1/runs', server.get('/v1/runs?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/runs', server.get('/v1/runs?path=/etc', auth), 403)
  await expect('GET', '/v1/runs', server.get('/v1/runs?path=nope', auth), 404)
  await expect('GET', '/v1/runs', server.post('/v1/runs', {}, auth), 405)
  await expect('GET', '/v1/runs', server.get('/v1/runs?path=notes.txt', auth), 422)

  const spend = await expect('GET', '/v1/spend', server.get('/v1/spend?path=spam.judge.yaml', auth), 200)
  t.ok(spend.body.today.requests >= 1, "the judged row counts as the server's spend")
  await expect('GET', '/v1/spend', server.get('/v1/spend', auth), 400)
  await expect('GET', '/v1/spend', server.get('/v1/spend?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/spend', server.get('/v1/spend?path=/etc', auth), 403)
  await expect('GET', '/v1/spend', server.get('/v1/spend?path=nope', auth), 404)
  await expect('GET', '/v1/spend', server.post('/v1/spend', {}, auth), 405)
  await expect('GET', '/v1/spend', server.get('/v1/spend?path=notes.txt', auth), 422)

  const drift = await expect('GET', '/v1/drift', server.get('/v1/drift?path=spam.judge.yaml', auth), 200)
  t.equal(drift.body.is_spam.length, 52)
  t.same(
    Object.keys(drift.body.is_spam[1]).sort(),
    ['alert', 'change', 'other_data', 'p_value', 'rows', 'run_id', 'same_data', 'shares', 'significant'],
    "without the like-runs parameters, the interface's entry, its noise test and the run's two comparisons",
  )
  const like = await expect(
    'GET',
    '/v1/drift',
    server.get('/v1/drift?path=spam.judge.yaml&command=run&source=data.csv', auth),
    200,
  )
  t.equal(like.body.is_spam.length, 51, 'the failed run shown, its successor compared with the run before it')
  t.match(like.body.is_spam.at(-1), { baseline: String, model_change: Number, model_rows: 4, data_change: Number })
  const completed = await expect(
    'GET',
    '/v1/drift',
    server.get('/v1/drift?path=spam.judge.yaml&completed=true', auth),
    200,
  )
  t.equal(completed.body.is_spam.length, 51)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=spam.judge.yaml&completed=maybe', auth), 400)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=two', auth), 400)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=spam.judge.yaml&token=wrong'), 401)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=two/../..', auth), 403)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=nope', auth), 404)
  await expect('GET', '/v1/drift', server.call('PUT', '/v1/drift', { headers: auth }), 405)
  await expect('GET', '/v1/drift', server.get('/v1/drift?path=notes.txt', auth), 422)

  writeAccuracyProject(join(dir, 'acc'), 6000, 0.25)
  addReasks(join(dir, 'acc'))
  const accuracy = await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=acc/spam.judge.yaml', auth), 200)
  t.ok(
    accuracy.body.questions.is_spam.estimate.estimable && accuracy.body.questions.is_spam.thresholds[0].suggested,
    'a report with every figure filled in',
  )
  t.match(
    accuracy.body.stability.is_spam,
    { reasked: 2, flip_rate: { point: Number }, near_threshold: { thresholds: [0.7] } },
    "a stability check's figures",
  )
  t.match(
    accuracy.body.questions.is_spam,
    { accuracy_target: 0.01, reviews_needed: { unsure: Number, confident: Number } },
    'the target and the reviews it takes',
  )
  t.ok(
    accuracy.body.questions.is_spam.reviews_needed.unsure + accuracy.body.questions.is_spam.reviews_needed.confident >
      0,
    'a ±1-point target is not reached yet',
  )
  const sparse = await expect(
    'GET',
    '/v1/accuracy',
    server.get('/v1/accuracy?path=spam.judge.yaml&target=0.9', auth),
    200,
  )
  t.equal(sparse.body.questions.is_spam.estimate.estimable, false, 'and one with little to go on')
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=two', auth), 400)
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=spam.judge.yaml&target=2', auth), 400)
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=../x', auth), 403)
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=nope', auth), 404)
  await expect('GET', '/v1/accuracy', server.post('/v1/accuracy', {}, auth), 405)
  await expect('GET', '/v1/accuracy', server.get('/v1/accuracy?path=notes.txt', auth), 422)
  const page = (q: string) => server.get(`/v1/pages/accuracy?${q}`, auth)
  t.same(
    (await expect('GET', '/v1/pages/accuracy', page('path=acc/spam.judge.yaml'), 200)).body.report,
    accuracy.body,
    "the page's data holds the report",
  )
  await expect('GET', '/v1/pages/accuracy', page('path=spam.judge.yaml&target=2'), 400)
  await expect('GET', '/v1/pages/accuracy', server.get('/v1/pages/accuracy?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/pages/accuracy', page('path=../x'), 403)
  await expect('GET', '/v1/pages/accuracy', page('path=nope'), 404)
  await expect('GET', '/v1/pages/accuracy', server.post('/v1/pages/accuracy', {}, auth), 405)
  await expect('GET', '/v1/pages/accuracy', page('path=notes.txt'), 422)

  const projects = await expect('GET', '/v1/pages', server.get('/v1/pages', auth), 200)
  t.ok(
    projects.body.folders.some((f: { error: string | null }) => f.error !== null) &&
      projects.body.folders.some((f: { path: string }) => f.path === 'acc'),
    'folders that load and one that does not',
  )
  await expect('GET', '/v1/pages', server.get('/v1/pages'), 401)
  await expect('GET', '/v1/pages', server.post('/v1/pages', {}, auth), 405)

  const review = await expect(
    'GET',
    '/v1/pages/review',
    server.get('/v1/pages/review?path=acc/spam.judge.yaml&reviewer=ann', auth),
    200,
  )
  t.equal(review.body.cards.length, 25, 'a page of cards')
  await expect(
    'GET',
    '/v1/pages/review',
    server.get(
      '/v1/pages/review?path=acc/spam.judge.yaml&kind=unsure&question=is_spam&page=2&saved=is_spam:0123456789abcdef&undone=is_spam:0123456789abcdef',
      auth,
    ),
    200,
  )
  await expect('GET', '/v1/pages/review', server.get('/v1/pages/review?path=spam.judge.yaml&kind=x', auth), 400)
  await expect('GET', '/v1/pages/review', server.get('/v1/pages/review?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/pages/review', server.get('/v1/pages/review?path=../x', auth), 403)
  await expect('GET', '/v1/pages/review', server.get('/v1/pages/review?path=nope', auth), 404)
  await expect('GET', '/v1/pages/review', server.post('/v1/pages/review', {}, auth), 405)
  await expect('GET', '/v1/pages/review', server.get('/v1/pages/review?path=notes.txt', auth), 422)

  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs?path=spam.judge.yaml', auth), 200)
  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs', auth), 400)
  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs?path=/etc', auth), 403)
  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs?path=nope', auth), 404)
  await expect('GET', '/v1/pages/runs', server.post('/v1/pages/runs', {}, auth), 405)
  await expect('GET', '/v1/pages/runs', server.get('/v1/pages/runs?path=notes.txt', auth), 422)

  writeFileSync(join(dir, 'rows.csv'), 'message\nFree entry in 2 a wkly comp\nSee you at lunch\nSee you at lunch\n')
  const judged = await cli(
    ['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'],
    { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k' },
    dir,
  )
  t.equal(judged.code, 0, judged.stderr)
  const runId = JSON.parse(judged.stdout)[0].run_id
  const run = await expect(
    'GET',
    '/v1/pages/runs/{run_id}',
    server.get(`/v1/pages/runs/${runId}?path=spam.judge.yaml`, auth),
    200,
  )
  t.match(
    run.body,
    { states: 2, run: { rows: 3, fit: { topic: { fits: false, lowest: [{ option_mass: 0.2, state: Object }] } } } },
    'a run with its rows and its fit',
  )
  await expect(
    'GET',
    '/v1/pages/runs/{run_id}',
    server.get(`/v1/pages/runs/${runs.body[0].run_id}?path=spam.judge.yaml`, auth),
    200,
  )
  const fitted = await expect(
    'GET',
    '/v1/pages/accuracy',
    server.get('/v1/pages/accuracy?path=spam.judge.yaml', auth),
    200,
  )
  t.match(
    fitted.body.fit,
    { run_id: runId, fit: { topic: { fits: false } } },
    "the accuracy page's data carries the newest run's fit",
  )
  await expect(
    'GET',
    '/v1/pages/runs/{run_id}',
    server.get(`/v1/pages/runs/${runId}?path=spam.judge.yaml&page=0`, auth),
    400,
  )
  await expect('GET', '/v1/pages/runs/{run_id}', server.get(`/v1/pages/runs/${runId}?path=spam.judge.yaml`), 401)
  await expect('GET', '/v1/pages/runs/{run_id}', server.get(`/v1/pages/runs/${runId}?path=../x`, auth), 403)
  await expect('GET', '/v1/pages/runs/{run_id}', server.get('/v1/pages/runs/nope?path=spam.judge.yaml', auth), 404)
  await expect(
    'GET',
    '/v1/pages/runs/{run_id}',
    server.post(`/v1/pages/runs/${runId}?path=spam.judge.yaml`, {}, auth),
    405,
  )
  await expect('GET', '/v1/pages/runs/{run_id}', server.get(`/v1/pages/runs/${runId}?path=notes.txt`, auth), 422)

  // A kept row shadowed by a candidate: the comparison the server can make without asking.
  await judge(server, {
    path: 'spam.judge.yaml',
    row: { message: 'WINNER!! claim your prize' },
    log: true,
    shadow: 'cand/spam.judge.yaml',
  })
  const compareOf = (q: string) => server.get(`/v1/compare?${q}`, auth)
  let compared = await expect(
    'GET',
    '/v1/compare',
    compareOf('path=spam.judge.yaml&candidate=cand/spam.judge.yaml'),
    200,
  )
  for (let i = 0; i < 50 && compared.body.compared === 0; i++)
    compared = await compareOf('path=spam.judge.yaml&candidate=cand/spam.judge.yaml')
  t.match(compared.body, {
    live: { judgment: 'spam' },
    candidate: { judgment: 'spam' },
    kept: 1,
    compared: 1,
    totals: null,
    run: null,
  })
  t.match(compared.body.questions.is_spam, { rows: 1, verdict: String, reviews_needed: Number })
  const byShadow = await expect(
    'GET',
    '/v1/compare',
    compareOf('path=spam.judge.yaml&shadow=spam&shadow_hash=' + compared.body.candidate.spec_hash),
    200,
  )
  t.same(byShadow.body, compared.body, 'a shadow candidate found by name and hash among the served specs')
  await expect('GET', '/v1/compare', compareOf('path=spam.judge.yaml'), 400)
  await expect('GET', '/v1/compare', server.get('/v1/compare?path=spam.judge.yaml&candidate=cand/spam.judge.yaml'), 401)
  await expect('GET', '/v1/compare', compareOf('path=spam.judge.yaml&candidate=../x'), 403)
  await expect('GET', '/v1/compare', compareOf('path=spam.judge.yaml&shadow=nobody'), 404)
  await expect('GET', '/v1/compare', server.post('/v1/compare', {}, auth), 405)
  await expect('GET', '/v1/compare', compareOf('path=spam.judge.yaml&candidate=notes.txt'), 422)
  const comparePage = (q: string) => server.get(`/v1/pages/compare?${q}`, auth)
  t.same(
    (await expect('GET', '/v1/pages/compare', comparePage('path=spam.judge.yaml&candidate=cand/spam.judge.yaml'), 200))
      .body.report,
    compared.body,
    "the page's data holds the report",
  )
  await expect(
    'GET',
    '/v1/pages/compare',
    comparePage('path=spam.judge.yaml&candidate=cand/spam.judge.yaml&margin=2'),
    400,
  )
  await expect('GET', '/v1/pages/compare', server.get('/v1/pages/compare?path=spam.judge.yaml'), 401)
  await expect('GET', '/v1/pages/compare', comparePage('path=../x&candidate=cand'), 403)
  await expect('GET', '/v1/pages/compare', comparePage('path=nope&candidate=cand'), 404)
  await expect('GET', '/v1/pages/compare', server.post('/v1/pages/compare', {}, auth), 405)
  await expect('GET', '/v1/pages/compare', comparePage('path=notes.txt&candidate=cand'), 422)
  const blind = await expect(
    'GET',
    '/v1/pages/review',
    server.get('/v1/pages/review?path=spam.judge.yaml&compare=cand/spam.judge.yaml', auth),
    200,
  )
  t.match(
    blind.body,
    { compare: 'cand/spam.judge.yaml', judgment: 'spam', cards: Array },
    "the comparison review's data",
  )
  const runsPage = await server.get('/runs?path=spam.judge.yaml&node=spam', auth)
  t.match(
    runsPage.text,
    /href="\/compare\?path=spam\.judge\.yaml&amp;node=spam&amp;shadow=spam&amp;shadow_hash=[0-9a-f]+">compare<\/a>/,
    '/runs links each shadow candidate to its comparison',
  )
  const forget = (s: typeof server, body: unknown, headers = auth) => s.call('POST', '/v1/forget', { body, headers })
  const forgotten = await expect('POST', '/v1/forget', forget(server, { path: 'spam.judge.yaml', row }), 200)
  t.match(
    forgotten.body,
    { dry_run: false, states: [{ values: true }], log_cleared: true },
    'the row judged above is forgotten',
  )
  await expect('POST', '/v1/forget', forget(server, { path: 'spam.judge.yaml', row, state: '0123456789abcdef' }), 400)
  await expect('POST', '/v1/forget', server.post('/v1/forget', { path: 'spam.judge.yaml', row }), 401)
  const open = await startJudgeServer(t, dir)
  t.match(
    (await expect('POST', '/v1/forget', open.post('/v1/forget', { path: 'spam.judge.yaml', row }), 403)).body.error,
    /needs a server with a token/,
  )
  await expect('POST', '/v1/forget', forget(server, { path: '../x', row }), 403)
  await expect('POST', '/v1/forget', forget(server, { path: 'nope', row }), 404)
  await expect('POST', '/v1/forget', server.get('/v1/forget', auth), 405)
  await expect('POST', '/v1/forget', server.call('POST', '/v1/forget', { body: big, headers: auth }), 413)
  await expect('POST', '/v1/forget', forget(server, { path: 'notes.txt', row }), 422)
  const closing = await startJudgeServer(t, dir, token)
  await closing.running.handler.close()
  await expect('POST', '/v1/forget', forget(closing, { path: 'spam.judge.yaml', row }), 503)

  // A store in trouble (here a text file in its place) is a 503 naming it, on every endpoint that reads it.
  writeFileSync(join(dir, 'harmed', '.judge', 'store.sqlite'), 'a note, not a store\n'.repeat(100))
  const harmed = (path: string) => server.get(path.replace('PATH', 'path=harmed/spam.judge.yaml'), auth)
  for (const path of [
    '/v1/runs',
    '/v1/drift',
    '/v1/spend',
    '/v1/accuracy',
    '/v1/pages/accuracy',
    '/v1/pages/review',
    '/v1/pages/runs',
  ]) {
    const res = await expect('GET', path, harmed(`${path}?PATH`), 503)
    t.match(res.body.error, 'harmed/.judge/store.sqlite is not a judge store', `${path} names the store`)
  }
  await expect('GET', '/v1/pages/runs/{run_id}', harmed(`/v1/pages/runs/${seeded[0].run_id}?PATH`), 503)
  for (const path of ['/v1/compare', '/v1/pages/compare'])
    await expect('GET', path, harmed(`${path}?PATH&candidate=harmed/cand/spam.judge.yaml`), 503)

  for (const [operation, statuses] of Object.entries(seen)) {
    const [method, path] = operation.split(' ')
    const documented = Object.keys(pathItem(path)[method.toLowerCase()].responses).map(Number)
    t.same([...statuses].sort(), documented.sort(), `every status documented for ${operation} was seen`)
  }
})
