import t from 'tap'
import { QUESTIONS } from '../helpers/engine-contract.ts'
import { ENGINES } from '../../src/adapters/engines.ts'
import { ENGINE_DEFAULTS, ENGINE_KINDS } from '../../src/core/engine-kinds.ts'

t.test('every engine kind has an adapter, with the defaults the configuration reads', async (t) => {
  t.same(Object.keys(ENGINES), ENGINE_KINDS)
  for (const kind of ENGINE_KINDS) t.match(ENGINES[kind], ENGINE_DEFAULTS[kind], kind)
})

t.test('System One is paced at its published 1,200 a minute, priced, and needs a key', async (t) => {
  t.match(ENGINES.systemone, {
    defaultUrl: 'https://api.typesafe.ai',
    defaultModel: 'jev-1.13.0',
    defaultRpm: 1200,
    defaultPricePerMtok: 0.042,
    needsKey: true,
  })
  const engine = ENGINES.systemone.create({ url: 'http://127.0.0.1:9', apiKey: 'k', model: null, timeoutMs: 100 })
  t.equal(engine.defaultModel, 'jev-1.13.0')
})

t.test(
  'an OpenAI-compatible server needs its URL and model, no key, and is free and unpaced unless told',
  async (t) => {
    t.match(ENGINES.openai, {
      defaultUrl: null,
      defaultModel: null,
      defaultRpm: 0,
      defaultPricePerMtok: 0,
      needsKey: false,
    })
    const engine = ENGINES.openai.create({
      url: 'http://127.0.0.1:9/v1',
      apiKey: null,
      model: 'qwen2.5',
      timeoutMs: 100,
    })
    t.equal(engine.defaultModel, 'qwen2.5')
    t.equal(engine.estimate?.({ model: 'qwen2.5', state: { m: 'x' }, questions: [] }).requests, 0)
  },
)

t.test('Anthropic needs a key, is paced at 50 a minute and priced at Claude Haiku 4.5 by default', async (t) => {
  t.match(ENGINES.anthropic, {
    defaultUrl: 'https://api.anthropic.com',
    defaultModel: 'claude-haiku-4-5-20251001',
    defaultRpm: 50,
    defaultPricePerMtok: 1,
    needsKey: true,
  })
  const engine = ENGINES.anthropic.create({ url: 'http://127.0.0.1:9', apiKey: 'k', model: null, timeoutMs: 100 })
  t.equal(engine.defaultModel, 'claude-haiku-4-5-20251001')
  t.ok(engine.batch, 'with Message Batches as its bulk lane')
  const named = ENGINES.anthropic.create({
    url: 'http://127.0.0.1:9',
    apiKey: 'k',
    model: 'claude-x',
    timeoutMs: 100,
    maxResponseBytes: 2048,
    fetch: globalThis.fetch,
  })
  t.equal(named.defaultModel, 'claude-x')
  const request = { model: 'claude-x', state: { m: 'x' }, questions: QUESTIONS }
  t.equal(engine.estimate!(request).requests, 3 * 5, 'k = 5 by default')
  const sampled = ENGINES.anthropic.create({
    url: 'http://127.0.0.1:9',
    apiKey: 'k',
    model: null,
    timeoutMs: 100,
    samples: 2,
    sampleTemperature: 0.5,
  })
  t.equal(sampled.estimate!(request).requests, 3 * 2, 'ENGINE_SAMPLES reaches the adapter')
})

t.test('ENGINE_SAMPLES and ENGINE_SAMPLE_TEMPERATURE reach the OpenAI-compatible adapter', async (t) => {
  const bodies: { temperature: number }[] = []
  const fetch = (async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)))
    return new Response(JSON.stringify({ choices: [{ message: { content: 'yes' }, logprobs: null }] }))
  }) as typeof globalThis.fetch
  const engine = ENGINES.openai.create({
    url: 'http://127.0.0.1:9/v1',
    apiKey: null,
    model: 'm',
    timeoutMs: 100,
    samples: 2,
    sampleTemperature: 0.25,
    fetch,
  })
  await engine.ask({ model: 'm', state: { m: 'x' }, questions: [QUESTIONS[0]] })
  t.same(
    bodies.map((b) => b.temperature),
    [0, 0.25, 0.25],
  )
})

t.test('every engine tries each request once: failures reach the core, which retries', async (t) => {
  let calls = 0
  const fetch = (async () => {
    calls++
    return new Response('{"detail": "busy"}', { status: 503 })
  }) as typeof globalThis.fetch
  const engine = ENGINES.systemone.create({
    url: 'http://127.0.0.1:9',
    apiKey: 'k',
    model: null,
    timeoutMs: 100,
    fetch,
  })
  await t.rejects(
    engine.ask({
      model: 'm',
      state: { m: 'x' },
      questions: [
        { name: 'q', ask: 'Q?', type: 'yes_no', labels: ['yes', 'no'], descriptions: [null, null], fingerprint: 'f' },
      ],
    }),
    { name: 'EngineError', engineStatus: 503, transient: true },
  )
  t.equal(calls, 1)
})

t.test('the simulated engine is created from the table, asking nothing and needing no key', async (t) => {
  t.match(ENGINES.simulated, { defaultUrl: 'local', defaultModel: 'simulated-1', defaultRpm: 0, needsKey: false })
  const engine = ENGINES.simulated.create({ url: 'local', apiKey: null, model: null, timeoutMs: 100 })
  t.equal(engine.defaultModel, 'simulated-1')
  t.equal(engine.modelId?.('jev-1.13.0'), 'simulated-jev-1.13.0')
})

t.test(
  "every HTTP engine takes ENGINE_MAX_RESPONSE_BYTES and the fetch it is given from the table's settings",
  async (t) => {
    for (const kind of ['systemone', 'openai', 'anthropic'] as const) {
      let calls = 0
      const fetch = (async () => {
        calls++
        return new Response(`{"pad": "${'x'.repeat(4096)}"}`)
      }) as typeof globalThis.fetch
      const engine = ENGINES[kind].create({
        url: 'http://127.0.0.1:9',
        apiKey: 'k',
        model: 'm',
        timeoutMs: 1000,
        maxResponseBytes: 1024,
        samples: 1,
        fetch,
      })
      await t.rejects(
        engine.ask({ model: 'm', state: { m: 'x' }, questions: [QUESTIONS[0]] }),
        { name: 'EngineError', message: /over 1 KiB \(ENGINE_MAX_RESPONSE_BYTES\)/ },
        kind,
      )
      t.ok(calls > 0, `${kind} asks through the fetch given`)
    }
  },
)
