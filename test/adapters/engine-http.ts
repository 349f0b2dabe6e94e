import t from 'tap'
import { cancelled, engineMessage, failureError, postOnce } from '../../src/adapters/engine-http.ts'

const target = (fetch: typeof globalThis.fetch, timeoutMs = 1000) => ({ endpoint: 'http://127.0.0.1:9/x', headers: { authorization: 'Bearer k' }, fetch, timeoutMs })

t.test('a success is the body; a failure says its status, the engine\'s words and any Retry-After', async (t) => {
  const ok = await postOnce(target((async () => new Response('{"a":1}')) as typeof fetch), '{}')
  t.same(ok, { ok: true, value: '{"a":1}' })
  const refused = await postOnce(target((async () => new Response('{"error": {"message": "slow down"}}', { status: 429, headers: { 'retry-after': '7' } })) as typeof fetch), '{}')
  t.match(refused, { ok: false, retryable: true, retryAfterMs: 7000, failure: { status: 429, message: 'engine answered 429: slow down', transient: true } })
  const bad = await postOnce(target((async () => new Response('nope', { status: 400, statusText: 'Bad Request' })) as typeof fetch), '{}')
  t.match(bad, { ok: false, retryable: false, failure: { status: 400, message: 'engine answered 400: nope', transient: false } })
})

t.test('network errors and timeouts are transient; a cancelled call is not', async (t) => {
  const down = await postOnce(target((async () => { throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }) }) as typeof fetch), '{}')
  t.match(down, { ok: false, failure: { status: null, transient: true, message: 'could not reach the engine at http://127.0.0.1:9/x: connect ECONNREFUSED' } })
  const hang = (async (_url: unknown, init: RequestInit) => new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch
  // AbortSignal.timeout's timer does not keep a process alive; a socket would, a fake fetch does not.
  const alive = setInterval(() => {}, 1000)
  t.teardown(() => clearInterval(alive))
  const late = await postOnce(target(hang, 20), '{}')
  t.match(late, { ok: false, failure: { message: 'the engine did not answer within 20 ms', transient: true } })
  const controller = new AbortController()
  const asking = postOnce(target(hang), '{}', controller.signal)
  controller.abort()
  t.match(await asking, { ok: false, retryable: false, failure: cancelled(controller.signal) })
})

t.test('the final error scrubs the key and keeps what the core needs', async (t) => {
  const error = failureError({ status: 503, message: 'engine answered 503: key sk-1 is busy', transient: true, retryAfterMs: 2000 }, 'sk-1')
  t.match(error, { name: 'EngineError', status: 502, engineStatus: 503, transient: true, retryAfterMs: 2000, message: 'engine answered 503: key [redacted] is busy' })
  t.equal(engineMessage('{"detail": [{"loc": ["body", "q"], "msg": "Field required"}]}', ''), 'body.q: Field required')
})
