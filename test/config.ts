import t from 'tap'
import { availableParallelism } from 'node:os'
import { readConfig, workersOf } from '../src/config.ts'
import { readJurorEngines } from '../src/config-jurors.ts'
import { UsageError } from '../src/errors.ts'

t.test('defaults apply when nothing is set', async (t) => {
  const config = readConfig({}, '/work', '/work/examples')
  t.same(config, {
    projects: '/work/examples',
    serverToken: null,
    serverMaxCost: 0.01,
    serverMaxDailyCost: null,
    maxCost: 1,
    batchPollMs: 1000,
    store: null,
    host: '127.0.0.1',
    port: 8080,
    engine: {
      kind: 'systemone',
      url: 'https://api.typesafe.ai',
      apiKey: null,
      model: null,
      timeoutMs: 30000,
      pricePerMtok: 0.042,
      batchPricePerMtok: 0.021,
      rpm: null,
      maxWaitMs: 300_000,
      giveUpMs: 120_000,
      maxResponseBytes: 4 * 2 ** 20,
      samples: 5,
      sampleTemperature: 1,
      from: { url: null, apiKey: null, model: null },
    },
    jurors: readJurorEngines({}),
    limits: { headersTimeoutMs: 10000, requestTimeoutMs: 30000, maxConnections: 1024, maxConnectionsPerClient: 256 },
    workers: 1,
    allowedHosts: [],
    observe: { metrics: true, accessLog: null },
    reviewLeaseS: 600,
  })
})

t.test('every variable is read, paths resolved from the working folder', async (t) => {
  const config = readConfig(
    {
      JUDGE_PROJECTS: 'specs',
      JUDGE_SERVER_TOKEN: 's3cret',
      JUDGE_SERVER_MAX_COST: '0.5',
      JUDGE_MAX_COST: '2',
      JUDGE_BATCH_POLL_MS: '250',
      JUDGE_STORE: 'db/s.sqlite',
      HOST: '0.0.0.0',
      PORT: '9000',
      ENGINE_URL: 'http://127.0.0.1:9/',
      ENGINE_API_KEY: 'k',
      ENGINE_MODEL: 'jev-2',
      ENGINE_TIMEOUT_MS: '100',
      ENGINE_PRICE_PER_MTOK: '0.1',
      ENGINE_BATCH_PRICE_PER_MTOK: '0.03',
      JUDGE_HEADERS_TIMEOUT_MS: '500',
      JUDGE_REQUEST_TIMEOUT_MS: '700',
      JUDGE_MAX_CONNECTIONS: '3',
      JUDGE_MAX_CONNECTIONS_PER_CLIENT: '2',
      JUDGE_WORKERS: '4',
      JUDGE_SERVER_MAX_DAILY_COST: '5',
      ENGINE: 'SystemOne',
      ENGINE_RPM: '600',
      ENGINE_MAX_WAIT_S: '60',
      ENGINE_GIVE_UP_S: '2.5',
      ENGINE_MAX_RESPONSE_BYTES: '65536',
      ENGINE_SAMPLES: '3',
      ENGINE_SAMPLE_TEMPERATURE: '0.8',
      JUDGE_ALLOWED_HOSTS: 'judge.example.com, .Corp.Example',
      JUDGE_METRICS: 'OFF',
      JUDGE_ACCESS_LOG: 'json',
      JUDGE_REVIEW_LEASE_S: '120',
    },
    '/work',
  )
  t.same(config, {
    projects: '/work/specs',
    serverToken: 's3cret',
    serverMaxCost: 0.5,
    serverMaxDailyCost: 5,
    maxCost: 2,
    batchPollMs: 250,
    store: '/work/db/s.sqlite',
    host: '0.0.0.0',
    port: 9000,
    engine: {
      kind: 'systemone',
      url: 'http://127.0.0.1:9',
      apiKey: 'k',
      model: 'jev-2',
      timeoutMs: 100,
      pricePerMtok: 0.1,
      batchPricePerMtok: 0.03,
      rpm: 600,
      maxWaitMs: 60_000,
      giveUpMs: 2500,
      maxResponseBytes: 65_536,
      samples: 3,
      sampleTemperature: 0.8,
      from: { url: 'ENGINE_URL', apiKey: 'ENGINE_API_KEY', model: 'ENGINE_MODEL' },
    },
    jurors: readJurorEngines({}),
    limits: { headersTimeoutMs: 500, requestTimeoutMs: 700, maxConnections: 3, maxConnectionsPerClient: 2 },
    workers: 4,
    allowedHosts: ['judge.example.com', '.corp.example'],
    observe: { metrics: false, accessLog: 'json' },
    reviewLeaseS: 120,
  })
})

t.test('a bad value is an error naming the variable and the value', async (t) => {
  t.throws(
    () => readConfig({ JUDGE_MAX_COST: '-1' }, '/'),
    new UsageError('JUDGE_MAX_COST must be a cost in USD, 0 or more, not "-1"'),
  )
  t.throws(() => readConfig({ PORT: '70000' }, '/'), /PORT must be a port number/)
  t.throws(() => readConfig({ ENGINE_TIMEOUT_MS: '1.5' }, '/'), /ENGINE_TIMEOUT_MS must be a whole number/)
  t.throws(() => readConfig({ JUDGE_SERVER_MAX_COST: 'abc' }, '/'), /JUDGE_SERVER_MAX_COST/)
  t.throws(
    () => readConfig({ JUDGE_MAX_CONNECTIONS: '0' }, '/'),
    /JUDGE_MAX_CONNECTIONS must be a whole number above 0/,
  )
  t.throws(
    () => readConfig({ JUDGE_MAX_CONNECTIONS_PER_CLIENT: '1.5' }, '/'),
    /JUDGE_MAX_CONNECTIONS_PER_CLIENT must be a whole number above 0, not "1.5"/,
  )
  t.throws(
    () => readConfig({ JUDGE_HEADERS_TIMEOUT_MS: '5000', JUDGE_REQUEST_TIMEOUT_MS: '1000' }, '/'),
    /JUDGE_HEADERS_TIMEOUT_MS \(5000\) must not be above JUDGE_REQUEST_TIMEOUT_MS \(1000\)/,
  )
  t.throws(
    () => readConfig({ JUDGE_SERVER_MAX_DAILY_COST: '-2' }, '/'),
    /JUDGE_SERVER_MAX_DAILY_COST must be a cost in USD/,
  )
  t.throws(
    () => readConfig({ JUDGE_REVIEW_LEASE_S: '0' }, '/'),
    /JUDGE_REVIEW_LEASE_S must be a whole number of seconds above 0, not "0"/,
  )
  t.throws(
    () => readConfig({ ENGINE: 'gpt' }, '/'),
    new UsageError('ENGINE must be one of systemone, simulated, openai, anthropic, not "gpt"'),
  )
  t.throws(() => readConfig({ ENGINE_RPM: 'fast' }, '/'), /ENGINE_RPM must be requests per minute/)
  t.throws(() => readConfig({ ENGINE_MAX_WAIT_S: '0' }, '/'), /ENGINE_MAX_WAIT_S must be a number of seconds above 0/)
  t.throws(() => readConfig({ ENGINE_GIVE_UP_S: '-1' }, '/'), /ENGINE_GIVE_UP_S/)
  t.throws(
    () => readConfig({ JUDGE_ALLOWED_HOSTS: 'ok.example, http://bad.example' }, '/'),
    new UsageError('JUDGE_ALLOWED_HOSTS must list host names separated by commas (or *), not "http://bad.example"'),
  )
})

t.test('JUDGE_ALLOWED_HOSTS takes * for any name, and an empty list for none beyond loopback', async (t) => {
  t.same(readConfig({ JUDGE_ALLOWED_HOSTS: '*' }, '/').allowedHosts, ['*'])
  t.same(readConfig({ JUDGE_ALLOWED_HOSTS: ' , ' }, '/').allowedHosts, [])
})

t.test(
  'an engine without a default URL needs it set; without a default model, ENGINE_MODEL may stay unset',
  async (t) => {
    t.throws(() => readConfig({ ENGINE: 'openai', ENGINE_MODEL: 'm' }, '/'), /ENGINE=openai needs ENGINE_URL/)
    t.match(
      readConfig({ ENGINE: 'openai', ENGINE_URL: 'http://127.0.0.1:8000/v1' }, '/').engine,
      { kind: 'openai', model: null, from: { model: null } },
      'specs naming their model need no ENGINE_MODEL: a spec naming none is refused when judged',
    )
    t.match(
      readConfig({ ENGINE: 'openai', ENGINE_URL: 'http://127.0.0.1:8000/v1/', ENGINE_MODEL: 'qwen' }, '/').engine,
      {
        kind: 'openai',
        url: 'http://127.0.0.1:8000/v1',
        pricePerMtok: 0,
        rpm: null,
      },
    )
  },
)

t.test('blank values count as unset', async (t) => {
  t.equal(readConfig({ ENGINE_API_KEY: '  ', JUDGE_STORE: '' }, '/').engine.apiKey, null)
})

t.test('ENGINE selects the engine: systemone by default, or simulated', async (t) => {
  t.equal(readConfig({ ENGINE: 'simulated' }, '/').engine.kind, 'simulated')
  t.equal(readConfig({ ENGINE: ' Simulated ' }, '/').engine.kind, 'simulated')
  t.equal(readConfig({ ENGINE: '' }, '/').engine.kind, 'systemone')
  t.throws(
    () => readConfig({ ENGINE: 'gpt' }, '/'),
    new UsageError('ENGINE must be one of systemone, simulated, openai, anthropic, not "gpt"'),
  )
})

t.test('JUDGE_WORKERS is a whole number from 1, or auto for every core', async (t) => {
  t.equal(readConfig({ JUDGE_WORKERS: 'auto' }, '/').workers, availableParallelism())
  t.equal(workersOf('AUTO', '--workers'), availableParallelism())
  t.equal(workersOf('3', '--workers'), 3)
  for (const bad of ['0', '-2', '1.5', 'many', ' '])
    t.throws(() => workersOf(bad, '--workers'), {
      name: 'UsageError',
      message: `--workers must be a whole number above 0 or auto, not "${bad}"`,
    })
  t.throws(() => readConfig({ JUDGE_WORKERS: '0' }, '/'), /JUDGE_WORKERS must be a whole number above 0 or auto/)
})

t.test('the per-client connection cap is a quarter of the global cap unless set', async (t) => {
  t.equal(readConfig({ JUDGE_MAX_CONNECTIONS: '8' }, '/').limits.maxConnectionsPerClient, 2)
  t.equal(readConfig({ JUDGE_MAX_CONNECTIONS: '3' }, '/').limits.maxConnectionsPerClient, 1, 'never below one')
  t.equal(
    readConfig({ JUDGE_MAX_CONNECTIONS_PER_CLIENT: '5000' }, '/').limits.maxConnectionsPerClient,
    5000,
    'behind a proxy it may be the global cap or more',
  )
})
