import t from 'tap'
import { getEventListeners } from 'node:events'
import { askEach } from '../../src/adapters/ask-each.ts'
import type { HttpTarget } from '../../src/adapters/engine-http.ts'
import { QUESTIONS } from '../helpers/engine-contract.ts'

function target(fetch: (body: string, signal: AbortSignal) => Promise<Response>): HttpTarget {
  return {
    endpoint: 'http://127.0.0.1:9/ask',
    headers: {},
    fetch: ((_url: string, init: RequestInit) => fetch(String(init.body), init.signal!)) as typeof globalThis.fetch,
    timeoutMs: 1000,
  }
}

const call = (question: { name: string }) => ({ body: question.name, read: (text: string) => `${text}!` })

t.test('one post per question, all at once, read in the questions order', async (t) => {
  const sent: string[] = []
  const answers = await askEach(
    target(async (body) => {
      sent.push(body)
      await new Promise((resolve) => setTimeout(resolve, body === 'is_spam' ? 20 : 0))
      return new Response(body.toUpperCase())
    }),
    null,
    QUESTIONS,
    call,
  )
  t.same(sent, ['is_spam', 'topic', 'urgency'])
  t.same(answers, ['IS_SPAM!', 'TOPIC!', 'URGENCY!'])
})

t.test('the first failure cancels the others and is the error, the key scrubbed', async (t) => {
  const aborted: string[] = []
  const caller = new AbortController()
  const failing = target(async (body, signal) => {
    if (body === 'topic') return new Response('{"error": {"message": "bad key k-1"}}', { status: 400 })
    return new Promise((_resolve, reject) =>
      signal.addEventListener('abort', () => {
        aborted.push(body)
        reject(signal.reason)
      }),
    )
  })
  await t.rejects(askEach(failing, 'k-1', QUESTIONS, call, caller.signal), {
    message: 'engine answered 400: bad key [redacted]',
    transient: false,
  })
  t.same(aborted.sort(), ['is_spam', 'urgency'])
  t.equal(getEventListeners(caller.signal, 'abort').length, 0, "no listener is left on the caller's signal")
})

t.test('a cancelled caller asks nothing, and one cancelled midway is told so', async (t) => {
  const caller = new AbortController()
  caller.abort()
  let posts = 0
  const counting = target(async () => {
    posts++
    return new Response('x')
  })
  await t.rejects(askEach(counting, null, QUESTIONS, call, caller.signal), {
    message: 'the engine request was cancelled',
  })
  t.equal(posts, 0)
  const later = new AbortController()
  const hanging = target(
    (_body, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  )
  const asking = askEach(hanging, null, QUESTIONS, call, later.signal)
  later.abort()
  await t.rejects(asking, { message: 'the engine request was cancelled' })
})
