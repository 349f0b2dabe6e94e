import t from 'tap'
import { engineTarget, questionLane, type QuestionWire } from '../../src/adapters/question-lane.ts'
import type { EngineRequest } from '../../src/ports/engine.ts'
import { QUESTIONS } from '../helpers/engine-contract.ts'

const REQUEST: EngineRequest = { model: 'm-1', state: { message: 'hi' }, questions: QUESTIONS }

/** A wire whose body names its question, estimated at 10 tokens, answered with the question's first label. */
const WIRE: QuestionWire<{ model: string; q: string }> = {
  request: (model, _state, question) => ({ model, q: question.name }),
  estimate: () => 10,
  parse: (text, question) => ({
    model: text === 'named' ? 'served-1' : null,
    distribution: { [question.labels[0]]: 1 },
    optionMass: null,
    promptTokens: null,
    completionTokens: null,
  }),
  read: (_body, question) => WIRE.parse('', question),
}

t.test("an engine's target: its endpoint and headers, the options' fetch, time limit and cap", async (t) => {
  const fixed = { endpoint: 'http://x/ask', headers: { a: 'b' } }
  t.same(engineTarget({}, null, fixed), {
    ...fixed,
    fetch: globalThis.fetch,
    timeoutMs: 30_000,
    secrets: [null],
  })
  const fetch = (async () => new Response('')) as typeof globalThis.fetch
  t.same(engineTarget({ fetch, timeoutMs: 5, maxResponseBytes: 64 }, 'k-1', { ...fixed, requestIdHeader: 'id' }), {
    ...fixed,
    requestIdHeader: 'id',
    fetch,
    timeoutMs: 5,
    secrets: ['k-1'],
    maxResponseBytes: 64,
  })
})

t.test('one request per question, each body as the wire writes it, the answers assembled', async (t) => {
  const bodies: unknown[] = []
  const fetch = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body))
    bodies.push(body)
    return new Response(body.q === 'topic' ? 'named' : 'plain')
  }) as typeof globalThis.fetch
  const lane = questionLane(engineTarget({ fetch }, null, { endpoint: 'http://x/ask', headers: {} }), null, WIRE)
  t.same(lane.estimate(REQUEST), { inputTokens: 30, requests: 3 })
  const result = await lane.ask(REQUEST)
  t.same(
    bodies,
    QUESTIONS.map((q) => ({ model: 'm-1', q: q.name })),
  )
  t.same(result.distributions, Object.fromEntries(QUESTIONS.map((q) => [q.name, { [q.labels[0]]: 1 }])))
  t.match(result, { model: 'served-1', inputTokens: 30, outputTokens: 3, requests: 3 })
})
