import t from 'tap'
import { connect } from 'node:net'
import { EventEmitter } from 'node:events'
import {
  BODY_LIMIT,
  collectBody,
  depthOf,
  MAX_DEPTH,
  objectBody,
  optionalBoolean,
  optionalString,
  parseJson,
  requiredObject,
} from '../../src/http/body.ts'
import { rawRequest, startJudgeServer } from '../helpers/judge-server.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

t.test('JSON bodies parse; empty, malformed and too deeply nested ones are 400', async (t) => {
  t.same(parseJson('{"a":[1,{"b":null}]}'), { a: [1, { b: null }] })
  t.throws(() => parseJson('  '), { status: 400, message: /empty/ })
  t.throws(() => parseJson('{"a":'), { status: 400, message: /^the body is not JSON: / })
  t.throws(() => parseJson('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1)), {
    status: 400,
    message: /nested more than 64/,
  })
  t.same(
    parseJson('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)),
    JSON.parse('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH)),
  )
})

t.test('nesting depth is measured without recursion, even far past the limit', async (t) => {
  t.equal(depthOf(1), 0)
  t.equal(depthOf({}), 1)
  t.equal(depthOf({ a: [{ b: 1 }] }), 3)
  let deep: unknown = 1
  for (let i = 0; i < 100_000; i++) deep = [deep]
  t.equal(depthOf(deep), MAX_DEPTH + 1, 'stops counting once over the limit')
})

t.test('field readers check types and treat null as absent for optional fields', async (t) => {
  const body = objectBody({ s: 'x', b: true, o: { c: 1 }, n: null }, ['s', 'b', 'o', 'n', 'm'])
  t.equal(optionalString(body, 's'), 'x')
  t.equal(optionalString(body, 'n'), undefined)
  t.equal(optionalString(body, 'm'), undefined)
  t.throws(() => optionalString(body, 'b'), { status: 400, message: 'b must be a string' })
  t.equal(optionalBoolean(body, 'b'), true)
  t.equal(optionalBoolean(body, 'n'), undefined)
  t.throws(() => optionalBoolean(body, 's'), { status: 400, message: 's must be true or false' })
  t.same(requiredObject(body, 'o'), { c: 1 })
  t.throws(() => requiredObject(body, 'm'), { status: 400, message: 'm is required' })
  t.throws(() => requiredObject(body, 's'), { status: 400, message: /s must be a JSON object/ })
  t.throws(() => objectBody([], ['a']), { status: 400, message: 'the body must be a JSON object' })
  t.throws(() => objectBody(null, ['a']), { status: 400, message: 'the body must be a JSON object' })
  t.throws(() => objectBody({ a: 1, x: 2, y: 3 }, ['a']), {
    status: 400,
    message: 'unknown fields "x", "y"; the fields are a',
  })
  t.throws(() => objectBody({ x: 2 }, ['a', 'b']), { message: 'unknown field "x"; the fields are a, b' })
})

t.test('over HTTP a bad body is a 400 naming the problem and the engine is never reached', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  const path = 'spam.judge.yaml'
  const cases: [string, unknown, RegExp][] = [
    ['not JSON', '{"path": "spam.judge.yaml", ', /^the body is not JSON/],
    ['empty', '', /empty/],
    ['an array', [path], /must be a JSON object/],
    ['a string', '"spam"', /must be a JSON object/],
    ['row missing', { path }, /row is required/],
    ['row a string', { path, row: 'hello' }, /row must be a JSON object/],
    ['row an array', { path, row: ['hello'] }, /row must be a JSON object/],
    ['row null', { path, row: null }, /row must be a JSON object/],
    ['node a number', { path, row: { message: 'x' }, node: 3 }, /node must be a string/],
    ['shadow an object', { path, row: { message: 'x' }, shadow: {} }, /shadow must be a string/],
    ['log a string', { path, row: { message: 'x' }, log: 'yes' }, /log must be true or false/],
    ['an unknown field', { path, rows: [{ message: 'x' }] }, /unknown field "rows"/],
    [
      'deeply nested',
      '{"path":"spam.judge.yaml","row":{"message":' + '['.repeat(5000) + ']'.repeat(5000) + '}}',
      /nested more than/,
    ],
  ]
  for (const [what, body, message] of cases) {
    const res = await server.call('POST', '/v1/judge', { body, headers: { 'content-type': 'application/json' } })
    t.equal(res.status, 400, what)
    t.match(res.body, { error: message }, what)
  }
  const deepArray = await server.call('POST', '/v1/judge', { body: '['.repeat(200_000) + ']'.repeat(200_000) })
  t.equal(deepArray.status, 400, 'a body of 200,000 nested arrays is refused without harm')
  t.equal((await server.get('/v1/runs?path=spam.judge.yaml')).status, 200, 'and the server carries on')
})

t.test('a body over 1 MiB is 413 whether its length is declared or streamed, and the server carries on', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  const big = JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'x'.repeat(BODY_LIMIT) } })
  const declared = await server.call('POST', '/v1/judge', {
    body: big,
    headers: { 'content-type': 'application/json' },
  })
  t.equal(declared.status, 413)
  t.same(declared.body, { error: 'the request body is over the limit of 1048576 bytes', name: 'PayloadTooLargeError' })
  t.equal(declared.headers.get('connection'), 'close')
  const chunk = Buffer.alloc(64 * 1024, 0x20)
  const streamed = await rawRequest(
    server.url,
    'POST',
    '/v1/judge',
    { 'content-type': 'application/json' },
    Array(64).fill(chunk),
  )
  t.equal(streamed.status, 413, 'a chunked body is cut off once it passes the limit')
  const guarded = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok' })
  const form = await rawRequest(
    guarded.url,
    'POST',
    '/v1/judge',
    { 'content-type': 'application/x-www-form-urlencoded' },
    Array(20).fill(chunk),
  )
  t.equal(form.status, 413, 'a form read for its token is held to the same limit')
  const justUnder = JSON.stringify({
    path: 'spam.judge.yaml',
    row: { message: 'x' },
    pad: 'y'.repeat(BODY_LIMIT - 100),
  })
  t.equal(
    (await server.call('POST', '/v1/judge', { body: justUnder })).status,
    400,
    'a body just under the limit is read (and its unknown field refused)',
  )
  t.equal((await server.get('/v1/runs?path=spam.judge.yaml')).status, 200)
})

t.test('a client that waits for 100 Continue is refused before it sends an oversized body', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  const refused = await rawRequest(server.url, 'POST', '/v1/judge', {
    'content-type': 'application/json',
    expect: '100-continue',
    'content-length': String(2 * BODY_LIMIT),
  })
  t.equal(refused.status, 413)
  const small = JSON.stringify({ path: 'spam.judge.yaml', row: {} })
  const accepted = await rawRequest(
    server.url,
    'POST',
    '/v1/judge',
    { 'content-type': 'application/json', expect: '100-continue', 'content-length': String(small.length) },
    [small],
  )
  t.equal(accepted.status, 422, 'a body within the limit is asked for and read (the row lacks its column)')
})

t.test('a client that hangs up halfway through its body costs the server nothing', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  const { hostname, port } = new URL(server.url)
  await new Promise<void>((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        'POST /v1/judge HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"path":',
      )
      setTimeout(() => socket.destroy(), 50)
    })
    socket.on('close', () => resolve())
  })
  t.equal(await server.running.handler.idle(2000), true, 'the request is given up, not left hanging')
  t.same(server.logs, [], 'and it is no internal error')
  t.equal((await server.get('/v1/runs?path=spam.judge.yaml')).status, 200)
})

/** A body as collectBody reads it: events sent by the test. */
function fakeStream() {
  return Object.assign(new EventEmitter(), { complete: false, pause() {} })
}

t.test('a body of a declared length is whole at its last byte; one without, at the end of the stream', async (t) => {
  const read = (declared: number) => {
    const req = fakeStream()
    const got: [Error | null, string][] = []
    collectBody(req, declared, 100, (error, text) => got.push([error, text]))
    return { req, got }
  }
  const declared = read(5)
  declared.req.emit('data', Buffer.from('hel'))
  t.same(declared.got, [], 'not whole before its last byte')
  declared.req.emit('data', Buffer.from('lo'))
  t.same(declared.got, [[null, 'hello']], 'whole at its last byte, before the stream ends')
  declared.req.emit('end')
  t.equal(declared.got.length, 1, 'and told once')

  const chunked = read(Number.NaN)
  chunked.req.emit('data', Buffer.from('hel'))
  chunked.req.emit('data', Buffer.from('lo'))
  t.same(chunked.got, [])
  chunked.req.emit('end')
  t.same(chunked.got, [[null, 'hello']], 'sent in chunks: whole at the end')

  const empty = read(0)
  empty.req.emit('end')
  t.same(empty.got, [[null, '']])

  const short = read(5)
  short.req.emit('data', Buffer.from('hel'))
  short.req.emit('close')
  t.match(short.got, [[{ name: 'UsageError', message: /cut off/ }, '']], 'a body that stops short is cut off')
})
