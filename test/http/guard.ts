import t from 'tap'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { serverToken } from '../../src/http/auth.ts'
import { createGuard, hostName, type GuardOptions } from '../../src/http/guard.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'
import { verdictForms } from '../helpers/review-forms.ts'
import { reviewProject } from '../helpers/review-project.ts'

const open: GuardOptions = { token: null, allowedHosts: [], listenHost: '127.0.0.1' }
const none = new URLSearchParams()

t.test(
  'an open server answers for loopback names, IP addresses, its listen address and the names it is given, and no other',
  async (t) => {
    const guard = createGuard({
      ...open,
      listenHost: 'judge.lan',
      allowedHosts: ['judge.example.com', '.corp.example'],
    })
    for (const host of [
      undefined,
      'localhost:8080',
      'LOCALHOST',
      'app.localhost',
      '127.0.0.1:8080',
      '10.1.2.3',
      '[::1]:8080',
      'judge.lan:80',
      'judge.example.com',
      'corp.example',
      'a.corp.example:443',
    ]) {
      t.same(guard.admit('GET', { host }, none), { inForm: false, token: null }, `${host} is served`)
    }
    for (const host of ['evil.example:8181', 'localhost.evil.example', 'example.com', 'xcorp.example', '']) {
      t.throws(
        () => guard.admit('GET', { host }, none),
        { name: 'ForbiddenError', status: 403, message: /does not answer for the host .*JUDGE_ALLOWED_HOSTS/ },
        `${JSON.stringify(host)} is refused`,
      )
    }
    t.same(
      createGuard({ ...open, allowedHosts: ['*'] }).admit('GET', { host: 'anything.example' }, none),
      { inForm: false, token: null },
      '* answers for any name',
    )
    t.same(
      createGuard({ ...open, token: serverToken('tok-123456') }).admit(
        'GET',
        { host: 'evil.example', authorization: 'Bearer tok-123456' },
        none,
      ),
      { inForm: false, token: null },
      'with a token, the token is the guard',
    )
  },
)

t.test(
  'a request that changes state is refused when a browser says another site sent it, with or without a token',
  async (t) => {
    for (const token of [null, serverToken('tok-123456')]) {
      const guard = createGuard({ ...open, token, allowedHosts: ['judge.example.com'] })
      const auth = token ? { authorization: 'Bearer tok-123456' } : {}
      const host = '127.0.0.1:8080'
      const refused = [
        { origin: 'https://evil.example' },
        { origin: 'http://127.0.0.1:9999' },
        { origin: 'null' },
        { origin: 'file:///x' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'cross-site', origin: 'http://127.0.0.1:8080' },
        { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:3000' },
        { 'sec-fetch-site': 'same-site', origin: 'null' },
        { 'sec-fetch-site': 'same-site' },
      ]
      for (const headers of refused) {
        for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
          t.throws(
            () => guard.admit(method, { host, ...auth, ...headers }, none),
            { status: 403, message: /another site/ },
            `${method} ${JSON.stringify(headers)}`,
          )
        }
        t.doesNotThrow(
          () => guard.admit('GET', { host, ...auth, ...headers }, none),
          `GET ${JSON.stringify(headers)} changes nothing and is served`,
        )
      }
      const passed = [
        {},
        { origin: 'http://127.0.0.1:8080' },
        { origin: 'https://judge.example.com' },
        { 'sec-fetch-site': 'none' },
        { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8080' },
        { 'sec-fetch-site': 'same-origin', origin: 'null' },
        { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8080' },
      ]
      for (const headers of passed) {
        t.doesNotThrow(
          () => guard.admit('POST', { host, ...auth, ...headers }, none),
          `POST ${JSON.stringify(headers)} is the server's own or not a browser's`,
        )
      }
    }
  },
)

t.test('the token is taken from the header, else the query, else left to the form; a wrong one is 401', async (t) => {
  const guard = createGuard({ ...open, token: serverToken('tok-123456') })
  t.same(
    guard.admit('GET', { authorization: 'Bearer tok-123456' }, new URLSearchParams('token=wrong')),
    { inForm: false, token: null },
    'a header token is checked first and not carried on',
  )
  t.same(
    guard.admit('GET', { authorization: 'Basic dXNlcjpwYXNz' }, new URLSearchParams('token=tok-123456')),
    { inForm: false, token: 'tok-123456' },
    'a query token is carried on in pages',
  )
  t.same(guard.admit('POST', {}, none), { inForm: true }, 'no token anywhere else: the form may hold it')
  t.throws(() => guard.admit('GET', { authorization: 'Bearer nope' }, new URLSearchParams('token=tok-123456')), {
    name: 'UnauthorizedError',
    message: 'the token is wrong',
  })
  t.throws(() => guard.admit('GET', {}, new URLSearchParams('token=nope')), { name: 'UnauthorizedError' })
})

t.test('a host header names its host without port or brackets', async (t) => {
  t.equal(hostName('example.com:8080'), 'example.com')
  t.equal(hostName('example.com'), 'example.com')
  t.equal(hostName('[::1]:8080'), '::1')
  t.equal(hostName('[::1]'), '::1')
  t.equal(hostName('::1'), '::1')
})

t.test(
  "over HTTP: forged verdicts, undos and judgments from another site or a rebound name change nothing; the server's own forms and curl work",
  async (t) => {
    const project = await reviewProject(t)
    const server = await startJudgeServer(t, project.dir, project.env)
    const own = new URL(server.url).host
    const page = await server.get('/review?path=spam.judge.yaml&reviewer=ana')
    const form = verdictForms(page.text)[0]
    const verdict = new URLSearchParams(form.fields).toString()
    const reviews = join(project.dir, 'spam.reviews.csv')
    const judged = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'a message nobody judged yet' } })
    const asked = project.engine.requests.length
    const post = (path: string, headers: Record<string, string>, body: string) =>
      rawRequest(server.url, 'POST', path, headers, [body])
    const formType = { 'content-type': 'application/x-www-form-urlencoded' }
    const forged: { what: string; path: string; headers: Record<string, string>; body: string }[] = [
      {
        what: 'a cross-site verdict',
        path: '/review',
        headers: { ...formType, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body: verdict,
      },
      {
        what: 'a cross-site undo',
        path: '/review/undo',
        headers: { ...formType, origin: 'https://evil.example' },
        body: `${verdict}&reviewed_at=2026-01-01T00:00:00.000`,
      },
      {
        what: 'a cross-site text/plain judgment',
        path: '/v1/judge',
        headers: { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body: judged,
      },
      {
        what: 'a verdict under a rebound name',
        path: '/review',
        headers: { ...formType, host: 'evil.example:8181', origin: 'http://evil.example:8181' },
        body: verdict,
      },
      {
        what: 'a judgment under a rebound name',
        path: '/v1/judge',
        headers: { 'content-type': 'application/json', host: 'evil.example:8181' },
        body: judged,
      },
    ]
    for (const { what, path, headers, body } of forged) {
      const res = await post(path, headers, body)
      t.equal(res.status, 403, `${what} is refused`)
    }
    t.equal(
      (await rawRequest(server.url, 'GET', '/v1/runs?path=spam.judge.yaml', { host: 'evil.example:8181' })).status,
      403,
      'a rebound name cannot read either',
    )
    t.notOk(existsSync(reviews), 'no verdict was written')
    t.equal(project.engine.requests.length, asked, 'the engine was not asked')
    t.equal(
      (await post('/review', { ...formType, origin: `http://${own}`, 'sec-fetch-site': 'same-origin' }, verdict))
        .status,
      303,
      "the page's own form is recorded",
    )
    t.equal(readFileSync(reviews, 'utf8').trim().split('\n').length, 2, 'one verdict under the header')
    const before = statSync(reviews).size
    t.equal(
      (await post('/v1/judge', { 'content-type': 'application/json' }, judged)).status,
      200,
      'curl judges a new row',
    )
    t.equal(project.engine.requests.length, asked + 1)
    t.equal(statSync(reviews).size, before)
  },
)

t.test('with a token set, a cross-site request carrying the right token is refused the same way', async (t) => {
  const project = await reviewProject(t)
  const server = await startJudgeServer(t, project.dir, { ...project.env, JUDGE_SERVER_TOKEN: 'tok-123456' })
  const body = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'another new message' } })
  const asked = project.engine.requests.length
  const res = await rawRequest(
    server.url,
    'POST',
    '/v1/judge',
    { authorization: 'Bearer tok-123456', 'content-type': 'text/plain', origin: 'https://evil.example' },
    [body],
  )
  t.equal(res.status, 403)
  t.match(JSON.parse(res.text).error, /another site/)
  t.equal(project.engine.requests.length, asked)
  t.equal(
    (
      await rawRequest(server.url, 'POST', '/v1/judge', { authorization: 'Bearer tok-123456', host: 'evil.example' }, [
        body,
      ])
    ).status,
    200,
    'a token holder may use any name',
  )
})
