import t, { type Test } from 'tap'
import { createAnthropic, type AnthropicOptions } from '../../../src/adapters/anthropic/anthropic.ts'
import { toMessagesRequest } from '../../../src/adapters/anthropic/anthropic-wire.ts'
import { EngineError } from '../../../src/errors.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import {
  inputTokens,
  startAnthropicServer,
  type AnthropicServer,
  type AnthropicServerOptions,
} from '../../helpers/anthropic-server.ts'
import { engineContract, QUESTIONS } from '../../helpers/engine-contract.ts'
import { inTurn } from '../../helpers/openai-server.ts'

const MODEL = 'claude-haiku-4-5-20251001'
const REQUEST: EngineRequest = { model: MODEL, state: { message: 'WIN A PRIZE now' }, questions: QUESTIONS }

async function serve(t: Test, options: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  const server = await startAnthropicServer(options)
  t.teardown(() => server.close())
  return server
}

function adapter(server: AnthropicServer, options: Partial<AnthropicOptions> = {}) {
  return createAnthropic({ url: server.url, model: MODEL, apiKey: 'sk-ant-local', ...options })
}

await engineContract(t, 'the Anthropic adapter keeps the Engine contract', {
  working: async (t) => adapter(await serve(t)),
  failing: async (t) => adapter(await serve(t, { failTimes: 99, status: 500 })),
})

t.test('with k = 1 each question is one POST /v1/messages with the key and the version, all at once', async (t) => {
  const server = await serve(t, { expectKey: 'sk-ant-local' })
  const result = await adapter(server, { url: `${server.url}/`, samples: 1 }).ask(REQUEST)
  t.same(
    server.requests.map((r) => [r.method, r.path]),
    QUESTIONS.map(() => ['POST', '/v1/messages']),
  )
  t.match(server.requests[0].headers, {
    'x-api-key': 'sk-ant-local',
    'anthropic-version': '2023-06-01',
    'content-type': 'application/json',
  })
  t.same(
    server.requests.map((r) => r.body),
    QUESTIONS.map((q) => toMessagesRequest(MODEL, REQUEST.state, q)),
  )
  const counted = server.requests.reduce((sum, r) => sum + inputTokens(r.body), 0)
  t.match(result, { model: MODEL, requests: 3, inputTokens: counted, outputTokens: 9 })
  for (const q of QUESTIONS) t.same(result.facts![q.name], { source: 'text', samples: 1 }, 'no option mass, one text')
  for (const q of QUESTIONS)
    t.same(Object.values(result.distributions[q.name]).sort(), [...q.labels.map(() => 0).slice(1), 1])
})

t.test('each question is asked k times at the sampling temperature, p its share of the k answers', async (t) => {
  const server = await serve(t, { drawn: inTurn([1, 0, 1, 1]) })
  const result = await adapter(server, { samples: 4, sampleTemperature: 0.7 }).ask(REQUEST)
  t.equal(server.requests.length, 12)
  t.same(
    server.requests.map((r) => r.body),
    QUESTIONS.flatMap((q) => Array(4).fill(toMessagesRequest(MODEL, REQUEST.state, q, 0.7))),
  )
  t.same(result.distributions.is_spam, { yes: 0.25, no: 0.75 })
  t.same(result.distributions.topic, { personal: 0.25, promotion: 0.75, service: 0 })
  for (const q of QUESTIONS) t.same(result.facts![q.name], { source: 'samples', samples: 4 })
  const counted = server.requests.reduce((sum, r) => sum + inputTokens(r.body), 0)
  t.match(result, { requests: 12, inputTokens: counted, outputTokens: 12 * 3 }, 'usage summed over the k')
  const spec = await adapter(server, { samples: 4 }).ask({ ...REQUEST, questions: [QUESTIONS[0]], samples: 2 })
  t.equal(server.requests.length, 14, "a spec's samples: 2 asks twice")
  t.same(spec.facts!.is_spam, { source: 'samples', samples: 2 })
  await adapter(server).ask({ ...REQUEST, questions: [QUESTIONS[0]] })
  t.equal(server.requests.length, 19, 'by default 5 samples')
  t.equal((server.requests[18].body as { temperature: number }).temperature, 1, 'at temperature 1')
})

t.test('a sample that names no label fails the question, as one answer does', async (t) => {
  const server = await serve(t, { drawn: (labels, draw) => (draw === 2 ? 'maybe' : labels[0]) })
  await t.rejects(adapter(server, { samples: 3 }).ask({ ...REQUEST, questions: [QUESTIONS[0]] }), {
    name: 'EngineError',
    message: /the model answered "maybe", which begins none of the labels yes, no/,
  })
})

t.test('the estimate is k requests per question and k times the prompt tokens', async (t) => {
  const engine = createAnthropic({ url: 'http://127.0.0.1:9', model: MODEL, samples: 1 })
  const estimate = engine.estimate!(REQUEST)
  t.equal(estimate.requests, 3)
  t.ok(estimate.inputTokens > 3 * 50 && estimate.inputTokens < 3 * 200, `${estimate.inputTokens} tokens`)
  t.same(createAnthropic({ url: 'http://127.0.0.1:9', model: MODEL }).estimate!(REQUEST), {
    requests: 15,
    inputTokens: 5 * estimate.inputTokens,
  })
  t.same(engine.estimate!({ ...REQUEST, samples: 4 }), { requests: 12, inputTokens: 4 * estimate.inputTokens })
})

t.test('529 overloaded_error and 429 rate_limit_error may pass, with the wait retry-after names', async (t) => {
  const overloaded = await serve(t, { failTimes: 99, status: 529, retryAfter: '3' })
  await t.rejects(adapter(overloaded).ask(REQUEST), {
    name: 'EngineError',
    engineStatus: 529,
    transient: true,
    retryAfterMs: 3000,
    message: 'engine answered 529: Overloaded',
  })
  const limited = await serve(t, { failTimes: 99, status: 429, retryAfter: '12' })
  await t.rejects(adapter(limited).ask(REQUEST), {
    name: 'EngineError',
    engineStatus: 429,
    transient: true,
    retryAfterMs: 12_000,
  })
  const broken = await serve(t, { failTimes: 99, status: 500 })
  await t.rejects(adapter(broken).ask(REQUEST), {
    name: 'EngineError',
    engineStatus: 500,
    transient: true,
    retryAfterMs: null,
  })
})

t.test('400 invalid_request_error and 401 authentication_error will not, and the key never shows', async (t) => {
  const invalid = await serve(t, {
    reply: () => ({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } } }),
  })
  await t.rejects(adapter(invalid).ask(REQUEST), {
    engineStatus: 400,
    transient: false,
    message: 'engine answered 400: bad',
  })
  const wrongKey = await serve(t, { expectKey: 'sk-ant-right' })
  const error = await adapter(wrongKey, { apiKey: 'sk-ant-wrong-9' })
    .ask(REQUEST)
    .catch((e: unknown) => e)
  t.type(error, EngineError)
  t.match(error, { engineStatus: 401, transient: false, message: 'engine answered 401: invalid x-api-key [redacted]' })
})

t.test('without a key no x-api-key header is sent', async (t) => {
  const server = await serve(t)
  await adapter(server, { apiKey: null, samples: 1 }).ask({ ...REQUEST, questions: [QUESTIONS[0]] })
  t.equal(server.requests[0].headers['x-api-key'], undefined)
})

t.test('the models are GET /v1/models, with their display names and days', async (t) => {
  const server = await serve(t, { models: ['claude-haiku-4-5-20251001', 'claude-sonnet-4-5'] })
  t.same(await adapter(server).models!(), [
    { name: 'claude-haiku-4-5-20251001', description: 'claude-haiku-4-5-20251001', releaseDate: '2025-10-01' },
    { name: 'claude-sonnet-4-5', description: 'claude-sonnet-4-5', releaseDate: '2025-10-01' },
  ])
  t.match(server.requests[0], {
    method: 'GET',
    path: '/v1/models?limit=1000',
    headers: { 'x-api-key': 'sk-ant-local' },
  })
})
