import t, { type Test } from 'tap'
import { getEventListeners } from 'node:events'
import { createOpenAi, type OpenAiOptions } from '../../../src/adapters/openai/openai.ts'
import { EngineError } from '../../../src/errors.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import { engineContract, QUESTIONS } from '../../helpers/engine-contract.ts'
import {
  inTurn,
  simulatedTop,
  startOpenAiServer,
  type OpenAiServer,
  type OpenAiServerOptions,
} from '../../helpers/openai-server.ts'

const REQUEST: EngineRequest = {
  model: 'qwen2.5-7b-instruct',
  state: { message: 'WIN A PRIZE now' },
  questions: QUESTIONS,
}

async function serve(t: Test, options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const server = await startOpenAiServer(options)
  t.teardown(() => server.close())
  return server
}

function adapter(server: OpenAiServer, options: Partial<OpenAiOptions> = {}) {
  return createOpenAi({ url: server.url, model: 'qwen2.5-7b-instruct', ...options })
}

await engineContract(t, 'the OpenAI-compatible adapter keeps the Engine contract', {
  working: async (t) => adapter(await serve(t)),
  failing: async (t) => adapter(await serve(t, { failTimes: 99, status: 500 })),
})

t.test('each question is one request to /chat/completions, all at once, with the key only when given', async (t) => {
  const server = await serve(t)
  const result = await adapter(server).ask(REQUEST)
  t.equal(server.requests.length, 3)
  t.same(
    server.requests.map((r) => r.path),
    ['/v1/chat/completions', '/v1/chat/completions', '/v1/chat/completions'],
  )
  t.equal(server.requests[0].headers.authorization, undefined, 'no key, no header')
  t.match(result, { model: 'qwen2.5-7b-instruct', requests: 3, outputTokens: 3 })
  const prompts = server.requests.map((r) => r.body.messages[1].content as string)
  t.same(
    result.inputTokens,
    prompts.reduce(
      (sum, p, i) => sum + Math.ceil((server.requests[i].body.messages[0].content + '\n' + p).length / 4) + 16,
      0,
    ),
    'input tokens from usage',
  )
  const keyed = await serve(t, { expectKey: 'sk-local' })
  await adapter(keyed, { apiKey: 'sk-local' }).ask(REQUEST)
  t.equal(keyed.requests[0].headers.authorization, 'Bearer sk-local')
})

t.test("the distribution is the simulated model's, read from the first token's alternatives", async (t) => {
  const server = await serve(t)
  const result = await adapter(server).ask({ ...REQUEST, questions: [QUESTIONS[1]] })
  const body = server.requests[0].body
  const prompt = body.messages.map((m: { content: string }) => m.content).join('\n')
  const expected: Record<string, number> = { personal: 0, promotion: 0, service: 0 }
  for (const { token, logprob } of simulatedTop(['personal', 'promotion', 'service'], prompt)) {
    const label =
      token.trim() === '' ? undefined : Object.keys(expected).find((l) => l.startsWith(token.trim().toLowerCase()))
    if (label) expected[label] += Math.exp(logprob)
  }
  const total = Object.values(expected).reduce((a, b) => a + b, 0)
  for (const label of Object.keys(expected))
    t.ok(Math.abs(result.distributions.topic[label] - expected[label] / total) < 1e-5, label)
})

t.test('with k = 1 a server without log probabilities or usage answers from the text and the estimate', async (t) => {
  const server = await serve(t, { noLogprobs: true, noUsage: true })
  const engine = adapter(server, { samples: 1 })
  const result = await engine.ask(REQUEST)
  t.equal(server.requests.length, 3, 'each question once')
  t.same(result.facts!.topic, { source: 'text', samples: 1 })
  for (const q of QUESTIONS)
    t.same(
      Object.values(result.distributions[q.name]).sort(),
      [...q.labels.map(() => 0).slice(1), 1],
      `${q.name}: certain`,
    )
  t.equal(result.inputTokens, engine.estimate!(REQUEST).inputTokens)
})

t.test('the estimate is one request per question, its tokens from the prompt', async (t) => {
  const engine = createOpenAi({ url: 'http://127.0.0.1:9/v1', model: 'm' })
  const estimate = engine.estimate!(REQUEST)
  t.equal(estimate.requests, 3)
  t.ok(estimate.inputTokens > 3 * 50 && estimate.inputTokens < 3 * 200, `${estimate.inputTokens} tokens`)
})

t.test('a refusal carries its status, Retry-After and that asking again may help', async (t) => {
  const server = await serve(t, { failTimes: 99, status: 429, retryAfter: '7' })
  const error = await adapter(server)
    .ask(REQUEST)
    .catch((e: unknown) => e)
  t.type(error, EngineError)
  t.match(error, { engineStatus: 429, transient: true, retryAfterMs: 7000, message: 'engine answered 429: overloaded' })
})

t.test('one question failing cancels the others and fails the row', async (t) => {
  const server = await serve(t, {
    latencyMs: 50,
    reply: (_r, i) => (i === 1 ? { status: 400, body: { error: { message: 'bad label' } } } : undefined),
  })
  await t.rejects(adapter(server).ask(REQUEST), { message: 'engine answered 400: bad label', transient: false })
})

t.test("a row leaves no listener on the caller's signal, answered or failed", async (t) => {
  const caller = new AbortController()
  await adapter(await serve(t)).ask(REQUEST, caller.signal)
  const failing = await serve(t, {
    reply: (_r, i) => (i === 1 ? { status: 400, body: { error: { message: 'bad label' } } } : undefined),
  })
  await t.rejects(adapter(failing).ask(REQUEST, caller.signal))
  t.equal(getEventListeners(caller.signal, 'abort').length, 0)
})

t.test('an answer naming no label is an error that asking again would not mend', async (t) => {
  const server = await serve(t, { top: () => [{ token: 'Sure', logprob: -0.1 }] })
  await t.rejects(adapter(server).ask(REQUEST), {
    name: 'EngineError',
    transient: false,
    message: /the model answered "Sure", which begins none of the labels yes, no/,
  })
})

t.test('the key never shows in an error', async (t) => {
  const server = await serve(t, {
    reply: () => ({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-secret-9' } } }),
  })
  await t.rejects(adapter(server, { apiKey: 'sk-secret-9' }).ask(REQUEST), {
    message: 'engine answered 401: Incorrect API key provided: [redacted]',
  })
})

t.test('the models are GET {url}/models, and each answer carries the option mass of its top tokens', async (t) => {
  const server = await serve(t, { models: ['qwen2.5-7b-instruct', 'llama3.2:latest'] })
  t.same(
    (await adapter(server).models!()).map((m) => m.name),
    ['qwen2.5-7b-instruct', 'llama3.2:latest'],
  )
  t.match(server.requests[0], { method: 'GET', path: '/v1/models' })
  const result = await adapter(server).ask(REQUEST)
  for (const q of QUESTIONS)
    t.ok(
      result.facts![q.name].optionMass! > 0.9 && result.facts![q.name].optionMass! <= 1,
      `${q.name}: most of the mass on the labels`,
    )
  const stray = await serve(t, {
    top: () => [
      { token: 'I', logprob: Math.log(0.8) },
      { token: 'yes', logprob: Math.log(0.1) },
      { token: 'low', logprob: Math.log(0.05) },
    ],
  })
  const off = await adapter(stray).ask({ ...REQUEST, questions: [QUESTIONS[0]] })
  t.equal(off.facts?.is_spam.optionMass, 0.1, 'a model that would rather say something else')
  t.same(result.facts!.is_spam.source, 'logprobs')
  const bare = await serve(t, { noLogprobs: true })
  t.same(
    (await adapter(bare, { samples: 1 }).ask(REQUEST)).facts!.is_spam,
    { source: 'text', samples: 1 },
    'no log probabilities, no mass',
  )
})

t.test('a model without log probabilities: k samples at the temperature, learnt, then sampled directly', async (t) => {
  const server = await serve(t, { noLogprobs: true, drawn: inTurn([0, 1, 0]) })
  const engine = adapter(server, { samples: 3, sampleTemperature: 0.9 })
  t.same(engine.estimate!(REQUEST).requests, 3, 'not known yet: once per question')
  const first = await engine.ask(REQUEST)
  t.equal(server.requests.length, 3 + 9)
  const bodies = server.requests.map((r) => r.body as { temperature: number; logprobs?: boolean })
  t.same(
    bodies.map((b) => [b.temperature, b.logprobs ?? null]),
    [...Array(3).fill([0, true]), ...Array(9).fill([0.9, null])],
    'asked once with log probabilities, then k samples without',
  )
  t.same(first.distributions.is_spam, { yes: 0.666667, no: 0.333333 })
  t.same(first.distributions.topic, { personal: 0.666667, promotion: 0.333333, service: 0 })
  t.same(first.facts!.urgency, { source: 'samples', samples: 3 })
  const counted = server.requests.reduce((sum, r) => sum + promptTokensOf(r.body), 0)
  t.match(first, { requests: 12, inputTokens: counted, outputTokens: 12 }, 'the first answer is paid for too')
  t.same(engine.estimate!(REQUEST).requests, 9, 'known now: k per question')
  const second = await engine.ask(REQUEST)
  t.equal(server.requests.length, 12 + 9, 'sampled directly')
  t.ok(
    server.requests.slice(12).every((r) => (r.body as { temperature: number }).temperature === 0.9),
    'every request a sample',
  )
  t.match(second, { requests: 9, facts: { is_spam: { source: 'samples', samples: 3 } } })
  t.same(second.distributions.is_spam, { yes: 0.666667, no: 0.333333 })
  t.equal((await engine.ask({ ...REQUEST, samples: 1 })).requests, 3, "a spec's samples: 1 asks once, known or not")
})

t.test('a model it is told sends no log probabilities: k samples from the first row, none wasted', async (t) => {
  const server = await serve(t, { noLogprobs: true, drawn: inTurn([0, 1, 0]) })
  const engine = adapter(server, { samples: 3 })
  engine.knownWithout!(REQUEST.model)
  t.same(engine.estimate!(REQUEST).requests, 9, 'k per question before any request')
  const first = await engine.ask(REQUEST)
  t.equal(server.requests.length, 9, 'k per question, not 1 + k')
  t.ok(
    server.requests.every((r) => (r.body as { temperature: number }).temperature === 1),
    'every request a sample',
  )
  t.match(first, { requests: 9, facts: { is_spam: { source: 'samples', samples: 3 } } })
})

t.test('ENGINE_SAMPLES and ENGINE_SAMPLE_TEMPERATURE by default: 5 samples at temperature 1', async (t) => {
  const server = await serve(t, { noLogprobs: true })
  const result = await adapter(server).ask({ ...REQUEST, questions: [QUESTIONS[0]] })
  t.equal(server.requests.length, 1 + 5)
  t.equal((server.requests[5].body as { temperature: number }).temperature, 1)
  t.same(result.facts!.is_spam, { source: 'samples', samples: 5 })
})

/** The prompt tokens the local server counts for a body. */
function promptTokensOf(body: unknown): number {
  const messages = (body as { messages: { content: string }[] }).messages
  return Math.ceil(messages.map((m) => m.content).join('\n').length / 4) + 16
}
