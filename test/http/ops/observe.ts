import t from 'tap'
import { createObserver } from '../../../src/http/ops/observe.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { reviewProject } from '../../helpers/review-project.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TOKEN = 'a-very-secret-token-1234'

t.test(
  "JUDGE_ACCESS_LOG=json writes one JSON line per request, never the token, the query or a row's values",
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const lines: string[] = []
    const server = await startJudgeServer(
      t,
      dir,
      { JUDGE_SERVER_TOKEN: TOKEN, JUDGE_ACCESS_LOG: 'json' },
      { engine: createFakeEngine(), accessLog: (line) => lines.push(line) },
    )
    const auth = { authorization: `Bearer ${TOKEN}` }
    const row = { path: 'spam.judge.yaml', row: { message: 'my-private-row-value' } }
    const replies = [
      await server.post('/v1/judge', row, { ...auth, 'x-request-id': 'first' }),
      await server.post('/v1/judge', row, auth),
      await server.post('/v1/judge', row, auth),
      await server.get(`/runs/some-run?path=spam.judge.yaml&token=${TOKEN}`),
      await server.get('/v1/runs?path=spam.judge.yaml'),
    ]
    await server.running.handler.idle(1000)
    t.equal(lines.length, 5, 'one line per request')
    const parsed = lines.map((line) => JSON.parse(line))
    t.match(parsed[0], {
      method: 'POST',
      route: '/v1/judge',
      path: '/v1/judge',
      status: 200,
      request_id: 'first',
      by: 'full',
      reviewer: null,
      bytes: Number,
      ms: Number,
      time: /^\d{4}-\d\d-\d\dT/,
    })
    t.match(parsed[1], { by: 'full', status: 200 })
    t.match(parsed[2], { by: 'fast', status: 200 })
    t.match(parsed[3], { route: '/runs/{run_id}', path: '/runs/some-run', status: 404, by: 'full' })
    t.match(parsed[4], { route: '/v1/runs', status: 401 })
    t.same(
      parsed.map((line) => line.bytes),
      replies.map((r) => Buffer.byteLength(r.text)),
      'the bytes of each body, a kept reply or not',
    )
    t.same(Object.keys(parsed[0]), [
      'time',
      'method',
      'route',
      'path',
      'status',
      'ms',
      'bytes',
      'request_id',
      'by',
      'reviewer',
      'engine_request_ids',
    ])
    t.same(
      parsed.map((line) => line.engine_request_ids),
      [[], [], [], [], []],
      'a fake engine names no request of its own',
    )
    const all = lines.join('\n')
    for (const secret of [TOKEN, 'my-private-row-value', 'path=', '?']) t.notMatch(all, secret, `no ${secret}`)
  },
)

t.test("a verdict's line names its reviewer", async (t) => {
  const project = await reviewProject(t)
  const lines: string[] = []
  const server = await startJudgeServer(
    t,
    project.dir,
    { ...project.env, JUDGE_ACCESS_LOG: 'json' },
    { accessLog: (line) => lines.push(line) },
  )
  const page = await server.get('/review?path=spam.judge.yaml')
  const form = verdictForms(page.text)[0].fields
  const res = await fetch(`${server.url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams({ ...form, reviewer: 'ann' }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(res.status, 303)
  await server.running.handler.idle(1000)
  t.match(JSON.parse(lines.at(-1)!), { method: 'POST', route: '/review', status: 303, reviewer: 'ann' })
})

t.test("a request's figures are taken once, from plain data; with both off nothing is kept", async (t) => {
  const lines: string[] = []
  const observer = createObserver({ metrics: null, accessLog: (line) => lines.push(line) })
  const begun = { method: 'GET', route: 'none', path: '/x', headers: {}, requestId: 'id-1' }
  const left = observer.begin(begun)
  observer.end(left, { status: 499, bytes: 0, reviewer: null, by: 'full' })
  t.match(JSON.parse(lines[0]), { status: 499, path: '/x', bytes: 0, request_id: 'id-1', by: 'full' })
  observer.end(left, { status: 200, bytes: 12, reviewer: null, by: 'full' })
  t.equal(lines.length, 1, 'a request is taken once, however often it is ended')
  const quiet = createObserver({ metrics: null, accessLog: null })
  const seen = quiet.begin(begun)
  t.same(seen, { engineIds: [], trace: null, watched: null }, 'with both off nothing is watched')
  quiet.end(seen, { status: 200, bytes: 0, reviewer: null, by: 'fast' })
  t.equal(
    quiet.within(seen, () => 'ran'),
    'ran',
  )
  t.same(quiet.answered([]), [])
  quiet.verdict('spam', 'confirmed')
})
