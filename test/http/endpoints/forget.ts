import t, { type Test } from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appendVerdict } from '../../../src/adapters/files/reviews-file.ts'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { forgetEndpoint, parseForgetBody } from '../../../src/http/endpoints/forget.ts'
import type { HttpRequest } from '../../../src/http/context.ts'
import type { Resolved } from '../../../src/http/resolved-paths.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { serverContext } from '../../helpers/server-context.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const SECRET = 'Dana at 12 Elm Street'
const secret = stateHash({ message: SECRET })
const auth = { authorization: 'Bearer tok-forget-1' }

/** A project whose store and reviews file hold the secret row. */
async function project(t: Test): Promise<string> {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const store = openSqliteStore(join(dir, '.judge', 'store.sqlite'))
  store.putAnswers([answer({ stateHash: secret })], secret, { message: SECRET })
  store.keepRow('spam', secret, { message: SECRET }, '2026-01-01T00:00:00.000')
  store.close()
  await appendVerdict(join(dir, 'spam.reviews.csv'), {
    reviewed_at: '2026-01-01T00:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: secret,
    kind: 'unsure',
    verdict: 'labeled',
    labels: ['yes'],
    model_label: 'no',
    key_label: null,
    state: { message: SECRET },
    stratum: 'unsure',
    rank: 1,
  })
  return dir
}

const holds = (dir: string) =>
  ['.judge/store.sqlite', 'spam.reviews.csv'].some((f) => readFileSync(join(dir, f)).includes(SECRET))

t.test('a body names a path and exactly one of a row or a state hash', async (t) => {
  t.same(parseForgetBody({ path: 'p', row: { message: 'x' } }), {
    path: 'p',
    judgment: undefined,
    row: { message: 'x' },
    state: undefined,
  })
  t.same(parseForgetBody({ path: 'p', node: 'spam', state: secret, row: null }), {
    path: 'p',
    judgment: 'spam',
    row: undefined,
    state: secret,
  })
  const exactlyOne = /exactly one of row \(the row's columns\) or state \(its state hash\)/
  t.throws(() => parseForgetBody({ path: 'p' }), { name: 'UsageError', message: exactlyOne })
  t.throws(() => parseForgetBody({ path: 'p', row: {}, state: secret }), { name: 'UsageError', message: exactlyOne })
  t.throws(() => parseForgetBody({ path: 'p', row: [] }), {
    name: 'UsageError',
    message: 'row must be a JSON object of column to value',
  })
  t.throws(() => parseForgetBody({ path: 'p', state: 7 }), { name: 'UsageError', message: 'state must be a string' })
  t.throws(() => parseForgetBody({ path: 'p', state: secret, apply: false }), {
    name: 'UsageError',
    message: /unknown field "apply"/,
  })
})

t.test('an open server refuses to forget: 403, and nothing is removed', async (t) => {
  const dir = await project(t)
  const server = await startJudgeServer(t, dir)
  const res = await server.post('/v1/forget', { path: 'spam.judge.yaml', state: secret })
  t.equal(res.status, 403)
  t.match(res.body.error, /needs a server with a token \(JUDGE_SERVER_TOKEN\)/)
  t.ok(holds(dir))
})

t.test('with a token, the row is forgotten everywhere and the report answered; without the token, 401', async (t) => {
  const dir = await project(t)
  const engine = createFakeEngine()
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-forget-1' }, { engine })
  t.equal(
    (await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: SECRET }, log: true }, auth)).status,
    200,
  )
  t.equal((await server.post('/v1/forget', { path: 'spam.judge.yaml', state: secret })).status, 401)
  t.ok(holds(dir))
  const res = await server.post('/v1/forget', { path: 'spam.judge.yaml', row: { message: SECRET } }, auth)
  t.equal(res.status, 200, res.text)
  t.same(res.body, {
    dry_run: false,
    states: [{ state_hash: secret, values: true, kept_rows: 1, review_lines: 1 }],
    reviews_files: [{ file: 'spam.reviews.csv', lines: 1 }],
    log_cleared: true,
    removed: { values: 1, kept_rows: 1, review_lines: 1 },
    key_files: [],
  })
  t.notOk(holds(dir))
  const asked = engine.calls.length
  const judged = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: SECRET } }, auth)
  t.same(
    Object.values<{ cached: boolean }>(judged.body).map((a) => a.cached),
    [true, true, true],
    'the row comes back: still a cache hit',
  )
  t.equal(engine.calls.length, asked)
  t.notOk(holds(dir), 'and its values are not stored again')
  t.equal((await server.post('/v1/forget', { path: 'spam.judge.yaml', state: 'nope' }, auth)).status, 400)
  t.equal((await server.post('/v1/forget', { path: 'nope', state: secret }, auth)).status, 404)
})

t.test('forgetting drops every reply the server kept by request body', async (t) => {
  const dir = await project(t)
  const ctx = { ...serverContext(t, dir), token: {} as never }
  ctx.replies.set(JSON.stringify({ path: 'spam.judge.yaml', row: { message: SECRET } }), {
    reply: { status: 200, type: 'json', body: '{}' },
    resolved: { current: true } as Resolved,
    answers: [],
  })
  const request = { json: async () => ({ path: 'spam.judge.yaml', state: secret }) } as HttpRequest
  await forgetEndpoint(ctx, request)
  t.equal(ctx.replies.get(JSON.stringify({ path: 'spam.judge.yaml', row: { message: SECRET } })), undefined)
})
