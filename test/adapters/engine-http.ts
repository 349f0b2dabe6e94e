import t from 'tap'
import { setTimeout as delay } from 'node:timers/promises'
import {
  cancelled,
  engineMessage,
  failureError,
  getOnce,
  isRetryableStatus,
  parseRetryAfter,
  parseRetryAfterMs,
  postOnce,
  sendTo,
  streamLines,
  timeLimit,
  type HttpFailure,
} from '../../src/adapters/engine-http.ts'

const target = (fetch: typeof globalThis.fetch, timeoutMs = 1000) => ({
  endpoint: 'http://127.0.0.1:9/x',
  headers: { authorization: 'Bearer k' },
  fetch,
  timeoutMs,
})

t.test("a success is the body; a failure says its status, the engine's words and any Retry-After", async (t) => {
  const ok = await postOnce(target((async () => new Response('{"a":1}')) as typeof fetch), '{}')
  t.same(ok, { ok: true, value: '{"a":1}' })
  const refused = await postOnce(
    target(
      (async () =>
        new Response('{"error": {"message": "slow down"}}', {
          status: 429,
          headers: { 'retry-after': '7' },
        })) as typeof fetch,
    ),
    '{}',
  )
  t.match(refused, {
    ok: false,
    failure: { status: 429, message: 'engine answered 429: slow down', transient: true, retryAfterMs: 7000 },
  })
  const bad = await postOnce(
    target((async () => new Response('nope', { status: 400, statusText: 'Bad Request' })) as typeof fetch),
    '{}',
  )
  t.match(bad, {
    ok: false,
    failure: { status: 400, message: 'engine answered 400: nope', transient: false, retryAfterMs: null },
  })
})

t.test("a get goes to the URL given, with the target's headers and no body, and fails as a post does", async (t) => {
  const seen: [string, RequestInit][] = []
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push([url, init])
    return new Response(url.endsWith('/models') ? '{"models": []}' : 'gone', {
      status: url.endsWith('/models') ? 200 : 404,
    })
  }) as unknown as typeof globalThis.fetch
  t.same(await getOnce(target(fetch), 'http://127.0.0.1:9/v1/models'), { ok: true, value: '{"models": []}' })
  t.match(seen[0], [
    'http://127.0.0.1:9/v1/models',
    { method: 'GET', headers: { authorization: 'Bearer k', accept: 'application/json' }, redirect: 'manual' },
  ])
  t.equal(seen[0][1].body, undefined)
  t.match(await getOnce(target(fetch), 'http://127.0.0.1:9/v1/other'), {
    ok: false,
    failure: { status: 404, message: 'engine answered 404: gone', transient: false },
  })
  const down = (async () => {
    throw new TypeError('fetch failed')
  }) as typeof globalThis.fetch
  t.match(await getOnce(target(down), 'http://127.0.0.1:9/v1/models'), {
    ok: false,
    failure: { message: 'could not reach the engine at http://127.0.0.1:9/v1/models: fetch failed' },
  })
})

t.test('network errors and timeouts are transient; a cancelled call is not', async (t) => {
  const down = await postOnce(
    target((async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      })
    }) as typeof fetch),
    '{}',
  )
  t.match(down, {
    ok: false,
    failure: {
      status: null,
      transient: true,
      message: 'could not reach the engine at http://127.0.0.1:9/x: connect ECONNREFUSED',
    },
  })
  const hang = (async (_url: unknown, init: RequestInit) =>
    new Promise((_resolve, reject) =>
      init.signal!.addEventListener('abort', () => reject(init.signal!.reason)),
    )) as typeof fetch
  // AbortSignal.timeout's timer does not keep a process alive; a socket would, a fake fetch does not.
  const alive = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(alive))
  const late = await postOnce(target(hang, 20), '{}')
  t.match(late, { ok: false, failure: { message: 'the engine did not answer within 20 ms', transient: true } })
  const controller = new AbortController()
  const asking = postOnce(target(hang), '{}', controller.signal)
  controller.abort()
  t.same(await asking, { ok: false, failure: cancelled(controller.signal) })
})

t.test('the final error scrubs the key and keeps what the core needs', async (t) => {
  const error = failureError(
    { status: 503, message: 'engine answered 503: key sk-1 is busy', transient: true, retryAfterMs: 2000 },
    'sk-1',
  )
  t.match(error, {
    name: 'EngineError',
    status: 502,
    engineStatus: 503,
    transient: true,
    retryAfterMs: 2000,
    message: 'engine answered 503: key [redacted] is busy',
  })
  t.equal(engineMessage('{"detail": [{"loc": ["body", "q"], "msg": "Field required"}]}', ''), 'body.q: Field required')
})

t.test('Retry-After reads delta-seconds and HTTP dates', async (t) => {
  const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')
  t.equal(parseRetryAfter('3', now), 3000)
  t.equal(parseRetryAfter(' 1.5 ', now), 1500)
  t.equal(parseRetryAfter('0', now), 0)
  t.equal(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', now), 10_000)
  t.equal(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now), 0, 'a date in the past means at once')
  t.equal(parseRetryAfter(null, now), null)
  t.equal(parseRetryAfter('-5', now), null, 'a negative wait is unreadable')
  t.equal(parseRetryAfter('tomorrow-ish', now), null)
  t.equal(parseRetryAfter('', now), null)
  t.type(parseRetryAfter('Wed, 21 Oct 2099 07:28:00 GMT'), 'number', 'now defaults to the clock')
})

t.test('408, 429 and 5xx are worth asking again; other statuses are not', async (t) => {
  for (const status of [408, 429, 500, 502, 503, 504, 599]) t.ok(isRetryableStatus(status), `${status}`)
  for (const status of [200, 301, 400, 401, 403, 404, 409, 422, 600]) t.notOk(isRetryableStatus(status), `${status}`)
})

t.test(
  "an attempt's time limit aborts when its time passes or its caller aborts, and not once it has ended",
  async (t) => {
    const alive = setInterval(() => {}, 1000)
    t.teardown(() => clearInterval(alive))
    const late = timeLimit(10)
    await delay(30)
    t.ok(late.signal.aborted && late.expired(), 'the time passed')
    t.equal((late.signal.reason as Error).name, 'TimeoutError')
    const caller = new AbortController()
    const followed = timeLimit(1000, caller.signal)
    caller.abort(new Error('stop'))
    t.same(
      [followed.signal.aborted, followed.expired(), (followed.signal.reason as Error).message],
      [true, false, 'stop'],
    )
    followed.end()
    t.ok(timeLimit(1000, AbortSignal.abort('already')).signal.aborted, 'a caller that aborted before')
    const other = new AbortController()
    const ended = timeLimit(10, other.signal)
    ended.end()
    other.abort()
    await delay(30)
    t.same(
      [ended.signal.aborted, ended.expired()],
      [false, false],
      'neither the timer nor the caller reaches an ended attempt',
    )
  },
)

t.test('retry-after-ms is preferred over Retry-After, and an unreadable one falls back to it', async (t) => {
  const reply = (headers: Record<string, string>) =>
    target((async () => new Response('{}', { status: 429, headers })) as typeof fetch)
  t.match(await postOnce(reply({ 'retry-after-ms': '250', 'retry-after': '7' }), '{}'), {
    failure: { retryAfterMs: 250 },
  })
  t.match(await postOnce(reply({ 'retry-after-ms': 'soon', 'retry-after': '7' }), '{}'), {
    failure: { retryAfterMs: 7000 },
  })
  t.equal(parseRetryAfterMs(' 12.6 '), 13)
  t.equal(parseRetryAfterMs('-1'), null)
  t.equal(parseRetryAfterMs(null), null)
})

t.test("the engine's request id is kept on answers and errors when the target names its header", async (t) => {
  const named = (status: number) => ({
    ...target(
      (async () =>
        new Response(status === 200 ? '{}' : 'busy', { status, headers: { 'x-request': 'req_7' } })) as typeof fetch,
    ),
    requestIdHeader: 'x-request',
  })
  t.same(await postOnce(named(200), '{}'), { ok: true, value: '{}', requestId: 'req_7' })
  const failed = await postOnce(named(529), '{}')
  t.match(failed, {
    ok: false,
    failure: { status: 529, message: 'engine answered 529: busy (request req_7)', requestId: 'req_7', transient: true },
  })
  const error = failureError((failed as { failure: HttpFailure }).failure, null)
  t.match(error, { requestId: 'req_7', context: { requestId: 'req_7' } })
  t.same(
    await postOnce({ ...named(200), requestIdHeader: 'x-other' }, '{}'),
    { ok: true, value: '{}' },
    'absent: nothing kept',
  )
})

t.test('an answer over the cap stops the request and fails it, unusable and not worth asking again', async (t) => {
  let signal: AbortSignal | undefined
  const huge = (status: number) =>
    ({
      ...target((async (_url: string, init: RequestInit) => {
        signal = init.signal ?? undefined
        return new Response('x'.repeat(5000), { status, headers: { 'x-request': 'req_8' } })
      }) as unknown as typeof fetch),
      requestIdHeader: 'x-request',
      maxResponseBytes: 2048,
    }) as const
  t.same(await postOnce(huge(200), '{}'), {
    ok: false,
    failure: {
      status: null,
      message: "the engine's answer was over 2 KiB (ENGINE_MAX_RESPONSE_BYTES), so it was not read (request req_8)",
      requestId: 'req_8',
    },
  })
  t.equal(signal?.aborted, true, 'the request was aborted')
  t.match(await postOnce(huge(503), '{}'), {
    ok: false,
    failure: { status: 503, message: /^engine answered 503: the engine's answer was over 2 KiB/, transient: true },
  })
  const small = { ...huge(200), maxResponseBytes: undefined }
  t.match(await postOnce(small, '{}'), { ok: true }, 'the default cap, 4 MiB, reads it')
})

t.test("the engine's request id is dropped when it breaks the rule of X-Request-Id or holds the key", async (t) => {
  const naming = (id: string) => ({
    ...target((async () => new Response('busy', { status: 500, headers: { 'x-request': id } })) as typeof fetch),
    requestIdHeader: 'x-request',
    secrets: ['sk-0123456789abcdef'],
  })
  for (const id of ['sk-0123456789abcdef', 'req-0123456789ab', 'req 1', 'x'.repeat(129)]) {
    const failed = await postOnce(naming(id), '{}')
    t.same(failed, {
      ok: false,
      failure: { status: 500, message: 'engine answered 500: busy', transient: true, retryAfterMs: null },
    })
  }
})

t.test('a time limit can be stopped at once', async (t) => {
  const limit = timeLimit(10_000)
  limit.stop()
  t.equal(limit.signal.aborted, true)
  t.equal(limit.expired(), false)
  limit.end()
})

t.test('a send carries a JSON body, a form or nothing; a stream gives the lines of a success', async (t) => {
  const seen: [string, RequestInit][] = []
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push([url, init])
    if (url.endsWith('/gone')) return new Response('{"error": {"message": "No such File object"}}', { status: 404 })
    return new Response(url.endsWith('/content') ? 'one\ntwo\n' : '{"id":"x"}')
  }) as unknown as typeof globalThis.fetch
  t.same(await sendTo(target(fetch), 'http://127.0.0.1:9/v1/batches', 'POST', '{"a":1}'), {
    ok: true,
    value: '{"id":"x"}',
  })
  t.match(seen[0][1], { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } })
  const form = new FormData()
  form.append('purpose', 'batch')
  await sendTo(target(fetch), 'http://127.0.0.1:9/v1/files', 'POST', form)
  t.equal(seen[1][1].body, form)
  t.notOk('content-type' in (seen[1][1].headers as object), 'fetch sets the boundary')
  await sendTo(target(fetch), 'http://127.0.0.1:9/v1/batches/b', 'GET')
  t.match(seen[2][1], { method: 'GET', body: undefined })
  const lines: string[] = []
  t.same(await streamLines(target(fetch), 'http://127.0.0.1:9/v1/files/f/content', (l) => lines.push(l)), {
    ok: true,
    value: '',
  })
  t.same(lines, ['one', 'two'])
  t.match(await streamLines(target(fetch), 'http://127.0.0.1:9/v1/files/gone', () => t.fail('no line')), {
    ok: false,
    failure: { status: 404, message: 'engine answered 404: No such File object', transient: false },
  })
})
