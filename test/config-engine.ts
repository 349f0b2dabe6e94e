import t from 'tap'
import { ANTHROPIC_KEY, number, readEngine, text, TYPESAFE_NAMES } from '../src/config-engine.ts'

t.test("TypeSafe's names stand in for System One's settings when the ENGINE_* names are unset", async (t) => {
  const engine = readEngine({
    TYPESAFE_API_KEY: 'ts-key',
    TYPESAFE_BASE_URL: 'https://gateway.example/',
    TYPESAFE_DEFAULT_MODEL: 'jev-preview',
  })
  t.match(engine, { kind: 'systemone', apiKey: 'ts-key', url: 'https://gateway.example', model: 'jev-preview' })
  t.same(engine.from, { url: 'TYPESAFE_BASE_URL', apiKey: 'TYPESAFE_API_KEY', model: 'TYPESAFE_DEFAULT_MODEL' })
  t.same(TYPESAFE_NAMES, { url: 'TYPESAFE_BASE_URL', apiKey: 'TYPESAFE_API_KEY', model: 'TYPESAFE_DEFAULT_MODEL' })
})

t.test('the ENGINE_* names win, setting by setting; blank counts as unset', async (t) => {
  const engine = readEngine({
    ENGINE_API_KEY: 'e-key',
    TYPESAFE_API_KEY: 'ts-key',
    ENGINE_MODEL: ' ',
    TYPESAFE_DEFAULT_MODEL: 'jev-latest',
  })
  t.match(engine, { apiKey: 'e-key', model: 'jev-latest', url: 'https://api.typesafe.ai' })
  t.same(engine.from, { url: null, apiKey: 'ENGINE_API_KEY', model: 'TYPESAFE_DEFAULT_MODEL' })
})

t.test("other engines do not read TypeSafe's names", async (t) => {
  const env = {
    ENGINE: 'openai',
    ENGINE_URL: 'http://127.0.0.1:8000/v1',
    ENGINE_MODEL: 'qwen',
    TYPESAFE_API_KEY: 'ts-key',
  }
  t.match(readEngine(env), { kind: 'openai', apiKey: null, from: { apiKey: null } })
  t.throws(() => readEngine({ ENGINE: 'openai', TYPESAFE_BASE_URL: 'http://x' }), /ENGINE=openai needs ENGINE_URL/)
})

t.test(
  'ENGINE=anthropic: its API root, model, pace and price by default; ANTHROPIC_API_KEY when ENGINE_API_KEY is unset',
  async (t) => {
    const engine = readEngine({ ENGINE: 'anthropic', ANTHROPIC_API_KEY: 'sk-ant', TYPESAFE_API_KEY: 'ts-key' })
    t.match(engine, {
      kind: 'anthropic',
      url: 'https://api.anthropic.com',
      apiKey: 'sk-ant',
      model: null,
      rpm: null,
      pricePerMtok: 1,
      batchPricePerMtok: 0.5,
    })
    t.same(engine.from, { url: null, apiKey: 'ANTHROPIC_API_KEY', model: null })
    t.match(readEngine({ ENGINE: 'anthropic', ENGINE_API_KEY: 'e-key', ANTHROPIC_API_KEY: 'sk-ant' }), {
      apiKey: 'e-key',
      from: { apiKey: 'ENGINE_API_KEY' },
    })
    t.match(readEngine({ ENGINE: 'openai', ENGINE_URL: 'http://x', ENGINE_MODEL: 'm', ANTHROPIC_API_KEY: 'sk-ant' }), {
      apiKey: null,
    })
    t.equal(ANTHROPIC_KEY, 'ANTHROPIC_API_KEY')
  },
)

t.test('a value reads trimmed, and a number is checked', async (t) => {
  t.equal(text({ A: '  x ' }, 'A'), 'x')
  t.equal(text({ A: '' }, 'A'), null)
  t.equal(
    number({}, 'N', 3, () => true, 'a number'),
    3,
  )
  t.throws(() => number({ N: '-1' }, 'N', 3, (n) => n >= 0, 'a count'), {
    name: 'UsageError',
    message: 'N must be a count, not "-1"',
  })
})

t.test('ENGINE_MAX_RESPONSE_BYTES is the most of an answer read: 4 MiB by default, at least 1 KiB', async (t) => {
  t.equal(readEngine({}).maxResponseBytes, 4 * 2 ** 20)
  t.equal(readEngine({ ENGINE_MAX_RESPONSE_BYTES: '65536' }).maxResponseBytes, 65_536)
  for (const bad of ['1000', '1500.5', 'lots'])
    t.throws(() => readEngine({ ENGINE_MAX_RESPONSE_BYTES: bad }), {
      name: 'UsageError',
      message: `ENGINE_MAX_RESPONSE_BYTES must be a whole number of bytes, at least 1024, not "${bad}"`,
    })
})

t.test('ENGINE_BATCH_PRICE_PER_MTOK is the bulk lane price: half of ENGINE_PRICE_PER_MTOK unless set', async (t) => {
  const openai = { ENGINE: 'openai', ENGINE_URL: 'https://api.example/v1', ENGINE_MODEL: 'gpt-4o-mini' }
  t.equal(readEngine({ ...openai, ENGINE_PRICE_PER_MTOK: '0.15' }).batchPricePerMtok, 0.075)
  t.equal(readEngine(openai).batchPricePerMtok, 0, 'a local server costs nothing in either lane')
  t.equal(
    readEngine({ ...openai, ENGINE_PRICE_PER_MTOK: '0.15', ENGINE_BATCH_PRICE_PER_MTOK: '0.1' }).batchPricePerMtok,
    0.1,
  )
  t.throws(() => readEngine({ ...openai, ENGINE_BATCH_PRICE_PER_MTOK: '-0.5' }), {
    name: 'UsageError',
    message: 'ENGINE_BATCH_PRICE_PER_MTOK must be a price in USD, 0 or more, not "-0.5"',
  })
})

t.test('ENGINE_SAMPLES is k, 5 by default, a whole number from 1; ENGINE_SAMPLE_TEMPERATURE 1, above 0', async (t) => {
  t.match(readEngine({}), { samples: 5, sampleTemperature: 1 })
  t.match(readEngine({ ENGINE_SAMPLES: '1', ENGINE_SAMPLE_TEMPERATURE: '0.7' }), { samples: 1, sampleTemperature: 0.7 })
  for (const bad of ['0', '2.5', '-3', 'many'])
    t.throws(() => readEngine({ ENGINE_SAMPLES: bad }), {
      name: 'UsageError',
      message: `ENGINE_SAMPLES must be a whole number of answers, 1 or more, not "${bad}"`,
    })
  const openai = { ENGINE: 'openai', ENGINE_URL: 'http://x/v1', ENGINE_MODEL: 'm' }
  t.equal(readEngine({ ...openai, ENGINE_SAMPLE_TEMPERATURE: '2' }).sampleTemperature, 2)
  for (const bad of ['0', '2.1', 'hot'])
    t.throws(() => readEngine({ ...openai, ENGINE_SAMPLE_TEMPERATURE: bad }), {
      name: 'UsageError',
      message: `ENGINE_SAMPLE_TEMPERATURE must be a temperature above 0 and at most 2, not "${bad}"`,
    })
  t.throws(() => readEngine({ ENGINE: 'anthropic', ENGINE_SAMPLE_TEMPERATURE: '1.2' }), {
    name: 'UsageError',
    message: `ENGINE_SAMPLE_TEMPERATURE must be a temperature above 0 and at most 1 (Anthropic's most), not "1.2"`,
  })
  t.equal(readEngine({ ENGINE: 'anthropic', ENGINE_SAMPLE_TEMPERATURE: '1' }).sampleTemperature, 1)
})
