import t from 'tap'
import { jurorVariable, PROVIDER_NAMES, readJurorEngine, readJurorEngines } from '../src/config-jurors.ts'
import { readConfig } from '../src/config.ts'
import { ENGINE_DEFAULTS, ENGINE_KINDS } from '../src/core/engine-kinds.ts'

t.test("a juror's engine reads its own ENGINE_<KIND>_* settings first", async (t) => {
  const env = {
    ENGINE_ANTHROPIC_URL: 'https://proxy.example/anthropic/',
    ENGINE_ANTHROPIC_API_KEY: 'own-key',
    ENGINE_ANTHROPIC_PRICE_PER_MTOK: '0.8',
    ANTHROPIC_API_KEY: 'sdk-key',
    ANTHROPIC_BASE_URL: 'https://sdk.example',
    ENGINE_API_KEY: 'configured-engine-key',
  }
  t.same(readJurorEngine(env, 'anthropic'), {
    kind: 'anthropic',
    url: 'https://proxy.example/anthropic',
    apiKey: 'own-key',
    pricePerMtok: 0.8,
    rpm: ENGINE_DEFAULTS.anthropic.defaultRpm,
    from: { url: 'ENGINE_ANTHROPIC_URL', apiKey: 'ENGINE_ANTHROPIC_API_KEY' },
  })
  t.equal(readConfig(env, '/').jurors.anthropic.apiKey, 'own-key', 'the configuration holds them')
})

t.test("then the provider SDKs' names, then the kind's defaults", async (t) => {
  const env = {
    ANTHROPIC_API_KEY: 'sdk-key',
    OPENAI_API_KEY: 'oa-key',
    OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1',
    TYPESAFE_API_KEY: 'ts-key',
  }
  const engines = readJurorEngines(env)
  t.match(engines.anthropic, { apiKey: 'sdk-key', url: ENGINE_DEFAULTS.anthropic.defaultUrl, pricePerMtok: 1 })
  t.same(engines.anthropic.from, { url: null, apiKey: 'ANTHROPIC_API_KEY' })
  t.match(engines.openai, { apiKey: 'oa-key', url: 'http://127.0.0.1:8000/v1', pricePerMtok: 0 })
  t.same(engines.openai.from, { url: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' })
  t.match(engines.systemone, { apiKey: 'ts-key', url: ENGINE_DEFAULTS.systemone.defaultUrl })
  t.match(engines.simulated, { apiKey: null, url: 'local', rpm: 0 })
  t.equal(readJurorEngine({}, 'openai').url, null, 'openai has no default URL')
  t.same(Object.keys(engines), [...ENGINE_KINDS])
  t.same(PROVIDER_NAMES.simulated, { url: [], apiKey: [] })
})

t.test('a bad price is a usage error naming its variable', async (t) => {
  t.equal(jurorVariable('openai', 'PRICE_PER_MTOK'), 'ENGINE_OPENAI_PRICE_PER_MTOK')
  t.throws(() => readJurorEngines({ ENGINE_OPENAI_PRICE_PER_MTOK: '-1' }), {
    name: 'UsageError',
    message: 'ENGINE_OPENAI_PRICE_PER_MTOK must be a price in USD, 0 or more, not "-1"',
  })
})
