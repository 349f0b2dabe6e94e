import t from 'tap'
import { request } from 'node:http'
import { requestIdOf } from '../../../src/http/ops/request-id.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('a well-formed id sent by the client is kept; anything else is replaced by a new UUID', async (t) => {
  t.equal(requestIdOf('abc-123'), 'abc-123')
  t.equal(requestIdOf('0af7651916cd43dd8448eb211c80319c'), '0af7651916cd43dd8448eb211c80319c')
  t.equal(requestIdOf(['first', 'second']), 'first')
  t.equal(requestIdOf('x'.repeat(128)), 'x'.repeat(128))
  for (const bad of [undefined, '', 'x'.repeat(129), 'has space', 'new\nline', 'quote"', 'é'])
    t.match(requestIdOf(bad), UUID, JSON.stringify(bad))
  t.not(requestIdOf(undefined), requestIdOf(undefined), 'each new id differs')
})

t.test(
  'every response carries X-Request-Id: answered, refused, not found, from the fast path, and after shutdown',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const server = await startJudgeServer(
      t,
      dir,
      { JUDGE_SERVER_TOKEN: 'a-token-of-some-length' },
      { engine: createFakeEngine() },
    )
    const auth = { authorization: 'Bearer a-token-of-some-length' }
    const judge = { path: 'spam.judge.yaml', row: { message: 'hello' } }
    t.match((await server.get('/v1/runs?path=spam.judge.yaml', auth)).headers.get('x-request-id'), UUID)
    t.match((await server.get('/v1/runs?path=spam.judge.yaml')).headers.get('x-request-id'), UUID, 'a 401')
    t.match((await server.get('/nope', auth)).headers.get('x-request-id'), UUID, 'a 404 page')
    t.equal(
      (await server.post('/v1/judge', judge, { ...auth, 'x-request-id': 'asked-1' })).headers.get('x-request-id'),
      'asked-1',
    )
    t.equal(
      (await server.post('/v1/judge', judge, { ...auth, 'x-request-id': 'cached-2' })).headers.get('x-request-id'),
      'cached-2',
      'answered by the fast path',
    )
    t.equal(
      (await server.post('/v1/judge', judge, { ...auth, 'x-request-id': 'kept-3' })).headers.get('x-request-id'),
      'kept-3',
      'a kept reply',
    )
    t.match((await server.get('/healthz', { ...auth, 'x-request-id': 'bad id' })).headers.get('x-request-id'), UUID)
    await server.running.handler.close(1000)
    const refused = await server.get('/v1/runs?path=spam.judge.yaml', { ...auth, 'x-request-id': 'late-4' })
    t.equal(refused.status, 503)
    t.equal(refused.headers.get('x-request-id'), 'late-4')
    t.same(refused.body, { error: 'the server is shutting down', name: 'ShuttingDownError', request_id: 'late-4' })
  },
)

t.test('a 5xx carries the request id in its body and in the log line; a 4xx body does not', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir, {}, { engine: createFakeEngine({ fail: new TypeError('a bug') }) })
  const failed = await server.post(
    '/v1/judge',
    { path: 'spam.judge.yaml', row: { message: 'x' } },
    { 'x-request-id': 'req-500' },
  )
  t.equal(failed.status, 500)
  t.same(failed.body, {
    error: 'internal error; the server log has the details',
    name: 'InternalError',
    request_id: 'req-500',
  })
  t.match(server.logs.join('\n'), /internal error on POST \/v1\/judge \(request req-500\): TypeError: a bug/)
  const page = await server.call('GET', '/review?path=spam.judge.yaml&audit=x', {
    headers: { 'x-request-id': 'req-400' },
  })
  t.equal(page.status, 400)
  t.notMatch(page.text, 'req-400')
  const missing = await server.get('/v1/runs', { 'x-request-id': 'req-400' })
  t.same(Object.keys(missing.body), ['error', 'name'])
})

/** A GET sending the headers as given, repeated names included (fetch joins them into one). */
function sendRaw(url: string, headers: string[]): Promise<string | undefined> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    // Headers as a list are sent as they are: the Host too, which HTTP/1.1 requires.
    const req = request({ host: hostname, port, path: '/healthz', headers: ['host', hostname, ...headers] }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.headers['x-request-id'] as string | undefined))
    })
    req.on('error', reject)
    req.end()
  })
}

t.test('an X-Request-Id sent twice: the first is kept when well formed, else a new one is made', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  t.equal(await sendRaw(server.url, ['x-request-id', 'first-1', 'x-request-id', 'second-2']), 'first-1')
  t.match(await sendRaw(server.url, ['x-request-id', 'bad id', 'x-request-id', 'second-2']), UUID)
  t.match(await sendRaw(server.url, ['x-request-id', 'first-1, second-2']), UUID, 'one header holding two')
  t.equal(await sendRaw(server.url, ['x-request-id', 'only-1']), 'only-1')
})
