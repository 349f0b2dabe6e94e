import t from 'tap'
import type { Test } from 'tap'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import type { HttpRequest } from '../../../src/http/context.ts'
import { judgeEndpoint, parseJudgeBody } from '../../../src/http/endpoints/judge.ts'
import { createRuntime } from '../../../src/runtime.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { serverContext } from '../../helpers/server-context.ts'
import { cli } from '../../helpers/cli.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { smsMessages } from '../../helpers/sms.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { startSystemOneServer, type SystemOneServerOptions } from '../../helpers/system-one-server.ts'

const KEY = 'engine-key-for-tests'
const [first, second] = smsMessages()

const TOPIC_YAML = `name: tone
state: [message]
questions:
  tone:
    ask: Is the tone friendly?
    type: yes_no
`
const CLASH_YAML = `name: other
state: [message]
questions:
  is_spam:
    ask: Is it spam, again?
    type: yes_no
`

async function setup(
  t: Test,
  files: Record<string, any> = { 'spam.judge.yaml': SPAM_YAML },
  env: Record<string, string> = {},
  engineOptions: SystemOneServerOptions = {},
) {
  const dir = t.testdir(files)
  const engine = await startSystemOneServer({ expectKey: KEY, ...engineOptions })
  t.teardown(() => engine.close())
  const engineEnv = { ENGINE_URL: engine.url, ENGINE_API_KEY: KEY }
  const server = await startJudgeServer(t, dir, { ...engineEnv, ...env })
  return { dir, engine, engineEnv, server }
}

t.test(
  'a row is answered per question with label, p, margin, route, cached and p_source, and asked once',
  async (t) => {
    const { engine, server } = await setup(t)
    const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message, id: 7 } })
    t.equal(res.status, 200, res.text)
    t.match(res.headers.get('content-type'), /^application\/json/)
    t.equal(res.headers.get('x-content-type-options'), 'nosniff')
    t.same(Object.keys(res.body).sort(), ['is_spam', 'topic', 'urgency'])
    for (const [question, answer] of Object.entries<any>(res.body)) {
      t.same(Object.keys(answer).sort(), ['cached', 'label', 'margin', 'p', 'p_source', 'route'], question)
      t.type(answer.label, 'string')
      t.type(answer.p, 'number')
      t.type(answer.margin, 'number')
      t.type(answer.route, 'string')
      t.equal(answer.cached, false)
      t.equal(answer.p_source, 'distribution', "the engine's own distribution")
    }
    t.match(res.body.is_spam, { label: /^(yes|no)$/, route: /^(block|review|deliver)$/ })
    t.equal(res.body.topic.route, '', 'no act for the question: an empty route')
    t.equal(engine.requests.length, 1, 'one request carries every question')
    const again = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
    t.same(
      Object.values<any>(again.body).map((a) => a.cached),
      [true, true, true],
    )
    t.same({ ...again.body.is_spam, cached: false }, res.body.is_spam, 'the same answer, from the store')
    t.equal(engine.requests.length, 1, 'the second call asks nothing')
  },
)

t.test('a row judged through the server is a cache hit for the next judge run', async (t) => {
  const data = stringify([
    ['id', 'message'],
    [first.id, first.message],
    [second.id, second.message],
  ])
  const { dir, engine, engineEnv, server } = await setup(t, { 'spam.judge.yaml': SPAM_YAML, 'rows.csv': data })
  for (const row of [first, second])
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row })).status, 200)
  const asked = engine.requests.length
  const result = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], engineEnv, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(JSON.parse(result.stdout)[0], { rows: 2, asked: 0, cached: 6, requests: 0, status: 'complete' })
  t.equal(engine.requests.length, asked, 'the engine got no new request')
})

t.test('a row lacking a state column is 422 naming the column, and nothing is asked', async (t) => {
  const { engine, server } = await setup(t)
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { text: 'hello' } })
  t.equal(res.status, 422)
  t.same(res.body, {
    error: 'row: the row lacks the state column "message"; its columns are "text"',
    name: 'InputError',
  })
  t.equal(engine.requests.length, 0)
})

t.test('a spec error is 422 naming the file and the key path', async (t) => {
  const { server } = await setup(t, {
    'bad.judge.yaml': 'state: [message]\nquestions:\n  q:\n    ask: Which?\n    labels: [only]\n',
  })
  const res = await server.post('/v1/judge', { path: 'bad.judge.yaml', row: { message: 'x' } })
  t.equal(res.status, 422)
  t.match(res.body.error, /^bad\.judge\.yaml: questions\.q\.labels: /)
})

t.test('above JUDGE_SERVER_MAX_COST nothing is asked and the answer is 422; JUDGE_MAX_COST is ignored', async (t) => {
  const capped = await setup(t, undefined, { JUDGE_SERVER_MAX_COST: '0.000001' })
  const res = await capped.server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.equal(res.status, 422)
  t.match(
    res.body.error,
    /^judgment spam: asking 3 answers in 1 request would cost an estimated \$0\.0000\d+, above the cap of \$0\.000001; nothing was asked$/,
  )
  t.equal(capped.engine.requests.length, 0)
  const tiny = await setup(t, undefined, { JUDGE_SERVER_MAX_COST: '0.0000001' })
  const refused = await tiny.server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.match(
    refused.body.error,
    /would cost an estimated \$0\.0000\d\d, above the cap of \$0\.0000001; nothing was asked$/,
    'a cap below a cent keeps its digits',
  )
  const uncapped = await setup(t, undefined, { JUDGE_MAX_COST: '0.000001' })
  t.equal(
    (await uncapped.server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })).status,
    200,
    'the CLI cap does not apply',
  )
})

t.test('without ENGINE_API_KEY a new row is 503 naming it, and a stored row is still answered', async (t) => {
  const { dir, server } = await setup(t)
  await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  const keyless = await startJudgeServer(t, dir)
  const fresh = await keyless.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: second.message } })
  t.equal(fresh.status, 503)
  t.match(fresh.body.error, /ENGINE_API_KEY is not set; nothing was asked/)
  const stored = await keyless.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.equal(stored.status, 200)
  t.equal(stored.body.is_spam.cached, true)
})

t.test('an engine that keeps failing is 502 with its status and message, and never the key', async (t) => {
  const { server } = await setup(t, undefined, {}, { failTimes: 100, status: 500, errorMessage: 'overloaded' })
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.equal(res.status, 502)
  t.match(res.body.error, /500/)
  t.match(res.body.error, /overloaded/)
  t.notMatch(res.text, KEY)
  const garbage = await setup(t, undefined, {}, { garbage: true })
  const unusable = await garbage.server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.equal(unusable.status, 502)
})

t.test('a folder of several judgments without node merges their answers; node picks one', async (t) => {
  const { server } = await setup(t, { 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TOPIC_YAML })
  const all = await server.post('/v1/judge', { path: '.', row: { message: first.message } })
  t.equal(all.status, 200, all.text)
  t.same(Object.keys(all.body).sort(), ['is_spam', 'tone', 'topic', 'urgency'])
  const one = await server.post('/v1/judge', { path: '.', row: { message: first.message }, node: 'tone' })
  t.same(Object.keys(one.body), ['tone'])
  t.equal(one.body.tone.cached, true)
  const unknown = await server.post('/v1/judge', { path: '.', row: { message: first.message }, node: 'nope' })
  t.equal(unknown.status, 400)
  t.match(unknown.body.error, /unknown node "nope"; the judgments here are: spam, tone/)
})

t.test('two judgments sharing a question name need node: 400 without it', async (t) => {
  const { engine, server } = await setup(t, { 'spam.judge.yaml': SPAM_YAML, 'other.judge.yaml': CLASH_YAML })
  const res = await server.post('/v1/judge', { path: '.', row: { message: first.message } })
  t.equal(res.status, 400)
  t.same(res.body, {
    error: 'judgments other and spam both ask question is_spam; name one with node',
    name: 'NodeNeededError',
  })
  t.equal(engine.requests.length, 0)
  t.equal((await server.post('/v1/judge', { path: '.', row: { message: first.message }, node: 'other' })).status, 200)
})

t.test('log: true keeps the row of each answered judgment for replay; without it nothing is kept', async (t) => {
  const { dir, server } = await setup(t, { 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TOPIC_YAML })
  await server.post('/v1/judge', { path: '.', row: { message: second.message }, node: 'spam' })
  await server.post('/v1/judge', { path: '.', row: { message: first.message, extra: 1 }, node: 'spam', log: true })
  await server.post('/v1/judge', { path: '.', row: { message: first.message }, node: 'spam', log: true })
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  t.teardown(() => store.close())
  const kept = store.keptRows('spam')
  t.equal(kept.length, 1)
  t.match(kept[0], { judgment: 'spam', state: { message: first.message }, seen: 2, stateHash: /^[0-9a-f]{16}$/ })
  t.same(store.keptRows('tone'), [], 'a judgment not answered keeps nothing')
})

t.test('the body parser keeps the fields, the node as the judgment, and defaults log to false', async (t) => {
  t.same(parseJudgeBody({ path: 'a', row: { x: 1 } }), {
    path: 'a',
    row: { x: 1 },
    judgment: undefined,
    shadow: undefined,
    log: false,
  })
  t.same(parseJudgeBody({ path: 'a', row: {}, node: 'n', shadow: 's', log: true }), {
    path: 'a',
    row: {},
    judgment: 'n',
    shadow: 's',
    log: true,
  })
})

t.test(
  'an engine that rate-limits past the short retry budget gets 503 with Retry-After; other failures 502; the server keeps serving',
  async (t) => {
    const { server } = await setup(
      t,
      undefined,
      { ENGINE_RPM: '0' },
      { limit: { requests: 1, windowMs: 60_000, retryAfter: '30' } },
    )
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })).status, 200)
    const limited = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: second.message } })
    t.equal(limited.status, 503)
    t.equal(limited.headers.get('retry-after'), '30')
    t.match(
      limited.body.error,
      /^the engine is rate-limiting requests \(engine answered 429: Rate limit of 1 requests per 60 s exceeded \(request req_\d+\)\); try again in 30 s$/,
    )
    const held = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'a third row' } })
    t.equal(held.status, 503, 'the next row waits for the same hold, asking nothing')
    t.match(held.body.error, /next free turn is (29|30) s away/)
    t.equal(
      (await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })).status,
      200,
      'a stored row is still answered',
    )

    const broken = await setup(
      t,
      undefined,
      { ENGINE_RPM: '0' },
      { failTimes: 99, status: 400, errorMessage: 'Unknown model' },
    )
    const bad = await broken.server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
    t.equal(bad.status, 502)
    t.equal(bad.headers.get('retry-after'), null)
    t.match(bad.body.error, /^engine answered 400: Unknown model \(request req_\d+\)$/)
  },
)

t.test('a server request waits at most ENGINE_TIMEOUT_MS for the engine, attempts and waits together', async (t) => {
  const { server } = await setup(t, undefined, { ENGINE_RPM: '0', ENGINE_TIMEOUT_MS: '300' }, { latencyMs: 5_000 })
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
  t.equal(res.status, 502)
  t.match(res.body.error, /did not answer within 300 ms/)
})

t.test("the simulated engine is refused by neither cap and adds nothing to the server's spend", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, {
    ENGINE: 'simulated',
    JUDGE_SERVER_MAX_DAILY_COST: '0',
    JUDGE_SERVER_MAX_COST: '0',
  })
  for (const { message } of [first, second])
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message } })).status, 200, message)
  t.match((await server.get('/v1/spend?path=spam.judge.yaml')).body, { daily_cap: 0, today: { cost: 0, requests: 0 } })
})

t.test(
  'the daily cap answers new rows 503 once reached, while stored rows are still served; the spend is shown',
  async (t) => {
    const { server, engine } = await setup(t, undefined, { ENGINE_RPM: '0', JUDGE_SERVER_MAX_DAILY_COST: '0.00002' })
    t.equal((await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })).status, 200)
    const capped = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: second.message } })
    t.equal(capped.status, 503)
    t.match(
      capped.body.error,
      /daily engine spend cap of \$0\.00002 \(JUDGE_SERVER_MAX_DAILY_COST\) is reached: \$0\.0000\d+ spent today \(UTC\); rows the store holds are still answered/,
    )
    t.ok(Number(capped.headers.get('retry-after')) > 0, 'Retry-After: until midnight UTC')
    t.equal(engine.requests.length, 1, 'nothing was asked for the capped row')
    const stored = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: first.message } })
    t.equal(stored.status, 200)
    const spend = await server.get('/v1/spend?path=spam.judge.yaml')
    t.match(spend.body, { daily_cap: 0.00002, today: { requests: 1 }, simulated: { today: { requests: 0 }, days: [] } })
    t.ok(spend.body.today.cost > 0)
    t.match(
      (await server.get('/')).text,
      /Engine spend by the server today \(UTC\): \$0\.0000\d+ in 1 request, of the \$0\.00002 daily cap/,
    )
  },
)

t.test('without an observer, a reply from the store is kept all the same, with no answers to count', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const base = serverContext(t, dir)
  const runtime = createRuntime(base.config, { engine: createFakeEngine() })
  t.teardown(() => runtime.close())
  const ctx = { ...base, runtime }
  const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello' } })
  const request = { body, json: async () => JSON.parse(body) } as HttpRequest
  const asked = await judgeEndpoint(ctx, request)
  t.equal(asked.keep, undefined, 'a row asked of the engine is not kept')
  const stored = await judgeEndpoint(ctx, request)
  t.same(stored.keep?.answers, [], 'a row the store holds is kept, with no answers counted')
  const { keep: _, ...made } = stored
  t.same(await judgeEndpoint(ctx, request), { ...made, kept: true }, 'and given back kept')
})
