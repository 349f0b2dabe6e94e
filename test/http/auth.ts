import t from 'tap'
import { authorize, bearerToken, serverToken } from '../../src/http/auth.ts'
import { UnauthorizedError } from '../../src/errors.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'

t.test('tokens compare equal only when identical, whatever their lengths', async (t) => {
  const secret = serverToken('secret')
  t.ok(secret.matches('secret'))
  t.ok(secret.matches('secret'), 'and again: the configured digest is kept, not consumed')
  t.notOk(secret.matches('secreT'))
  t.notOk(secret.matches('secret-but-longer'))
  t.notOk(secret.matches(''))
})

t.test('only the token itself matches: a NUL after it, a cut token or a long one is refused', async (t) => {
  const secret = serverToken('secret')
  t.notOk(secret.matches('secret\0'), 'the token and a NUL')
  t.notOk(secret.matches('secre'))
  t.notOk(secret.matches('\0'))
  t.ok(serverToken('séçret').matches('séçret'), 'bytes, not characters')
  t.notOk(serverToken('séçret').matches('secret'))
  const long = `${'l'.repeat(300)}-and-more`
  t.ok(serverToken(long).matches(long), 'a token of any length')
  t.notOk(serverToken(long).matches(long.slice(0, 300)), 'cut')
  t.notOk(serverToken(long).matches(`${long}!`), 'one byte more')
  t.notOk(secret.matches('s'.repeat(1_000_000)), 'a megabyte presented')
})

t.test('a bearer header gives its token; another scheme or none gives null', async (t) => {
  t.equal(bearerToken('Bearer abc'), 'abc')
  t.equal(bearerToken('bearer\tabc '), 'abc')
  t.equal(bearerToken('Basic abc'), null)
  t.equal(bearerToken('Bearer a b'), null)
  t.equal(bearerToken(undefined), null)
})

t.test('authorize accepts everything without a token and carries on only query and form tokens', async (t) => {
  const s = serverToken('s')
  t.equal(authorize(null, null), null)
  t.equal(authorize(null, { token: 'x', source: 'query' }), null)
  t.equal(authorize(s, { token: 's', source: 'header' }), null)
  t.equal(authorize(s, { token: 's', source: 'query' }), 's')
  t.equal(authorize(s, { token: 's', source: 'form' }), 's')
  t.throws(() => authorize(s, null), UnauthorizedError)
  t.throws(() => authorize(s, { token: 'x', source: 'header' }), {
    name: 'UnauthorizedError',
    message: 'the token is wrong',
  })
})

t.test('with a token configured, every way of sending it right is let in and every wrong way is 401', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': 'state: [x]\nquestions:\n  q: {ask: Is it?, type: yes_no}\n' })
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-123' })
  const ok = [
    await server.get('/v1/runs?path=a.judge.yaml', { authorization: 'Bearer tok-123' }),
    await server.get('/v1/runs?path=a.judge.yaml&token=tok-123'),
    await server.get('/?token=tok-123'),
    await server.get('/', { authorization: 'Bearer tok-123' }),
  ]
  t.same(
    ok.map((r) => r.status),
    [200, 200, 200, 200],
  )
  const form = await rawRequest(
    server.url,
    'POST',
    '/v1/judge',
    { 'content-type': 'application/x-www-form-urlencoded' },
    ['token=tok-123&path=a.judge.yaml'],
  )
  t.equal(form.status, 400, 'a right form token gets past authentication (the body is then not JSON)')
  t.match(JSON.parse(form.text).error, /not JSON/)

  const wrong = [
    await server.get('/v1/runs?path=a.judge.yaml'),
    await server.get('/v1/runs?path=a.judge.yaml', { authorization: 'Bearer tok-124' }),
    await server.get('/v1/runs?path=a.judge.yaml', { authorization: 'tok-123' }),
    await server.get('/v1/runs?path=a.judge.yaml&token=tok-12'),
    await server.get('/v1/runs?path=a.judge.yaml&token='),
    await server.get('/v1/runs?path=a.judge.yaml&token=tok-123', { authorization: 'Bearer wrong' }),
    await server.post('/v1/judge', { path: 'a.judge.yaml', row: { x: 1 }, token: 'tok-123' }),
    await server.get('/nowhere'),
  ]
  t.same(
    wrong.map((r) => r.status),
    [401, 401, 401, 401, 401, 401, 401, 401],
  )
  t.same(wrong[0].body, {
    error: 'a token is required: send Authorization: Bearer <token>, or the token parameter',
    name: 'UnauthorizedError',
  })
  t.same(wrong[1].body, { error: 'the token is wrong', name: 'UnauthorizedError' })
  t.equal(wrong[1].headers.get('www-authenticate'), 'Bearer realm="judge"')
  const wrongForm = await rawRequest(
    server.url,
    'POST',
    '/v1/judge',
    { 'content-type': 'application/x-www-form-urlencoded' },
    ['token=nope'],
  )
  t.equal(wrongForm.status, 401)

  const page = await server.get('/?token=nope')
  t.equal(page.status, 401)
  t.match(page.headers.get('content-type'), /^text\/html/)
  t.match(page.text, /<h1>401 Unauthorized<\/h1>/)
  t.notMatch(page.text, /nope/, 'a wrong token is never echoed')
  t.notMatch(page.text + wrong.map((r) => r.text).join(''), /tok-123/, 'nor the right one')
})

t.test('without a token configured every request is let in', async (t) => {
  const dir = t.testdir({ 'a.judge.yaml': 'state: [x]\nquestions:\n  q: {ask: Is it?, type: yes_no}\n' })
  const server = await startJudgeServer(t, dir)
  t.equal((await server.get('/v1/runs?path=a.judge.yaml')).status, 200)
  t.equal((await server.get('/v1/runs?path=a.judge.yaml&token=anything')).status, 200)
  const page = await server.get('/?token=anything')
  t.notMatch(page.text, /token=anything/, 'nothing to carry on when no token is configured')
})
