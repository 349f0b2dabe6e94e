import t, { type Test } from 'tap'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cli } from './helpers/cli.ts'
import { inputTokens, startAnthropicServer, type AnthropicServerOptions } from './helpers/anthropic-server.ts'
import { inTurn } from './helpers/openai-server.ts'
import { smsMessages } from './helpers/sms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { createVirtualClock } from './helpers/virtual-clock.ts'

// The spam spec judged end to end with ENGINE=anthropic against a local server speaking Anthropic's
// Messages API, its models list and its Message Batches.

const KEY = 'sk-ant-api03-Local-5678'
const ROWS = [...new Set(smsMessages().map((r) => r.message))].slice(0, 8)

async function setUp(t: Test, options: AnthropicServerOptions = {}) {
  const server = await startAnthropicServer({ expectKey: KEY, ...options })
  t.teardown(() => server.close())
  const dir = t.testdir({
    'spam.judge.yaml': `${SPAM_YAML}data: messages.csv\n`,
    'messages.csv': stringify([['message'], ...ROWS.map((m) => [m])]),
  })
  const env = {
    ENGINE: 'anthropic',
    ENGINE_URL: server.url,
    ENGINE_API_KEY: KEY,
    ENGINE_PRICE_PER_MTOK: '1',
    ENGINE_RPM: '0',
    JUDGE_BATCH_POLL_MS: '1',
  }
  return { server, dir, env }
}

t.test(
  'judge plan and run ask each question k times at /v1/messages, price every request, and a second run asks nothing',
  async (t) => {
    const { server, dir, env } = await setUp(t)
    const plan = await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(plan.code, 0, plan.stderr)
    t.match(JSON.parse(plan.stdout)[0], { ask: ROWS.length * 3, requests: ROWS.length * 3 * 5 }, 'k = 5 by default')
    const run = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(run.code, 0, run.stderr)
    const [record] = JSON.parse(run.stdout)
    t.match(record, {
      rows: ROWS.length,
      asked: ROWS.length * 3,
      requests: ROWS.length * 3 * 5,
      model: 'claude-haiku-4-5-20251001',
      status: 'complete',
    })
    t.equal(server.answered.length, ROWS.length * 3 * 5)
    t.ok(
      server.answered.every((r) => r.body.temperature === 1),
      'every sample at temperature 1',
    )
    t.match(server.answered[0].headers, { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' })
    const tokens = server.answered.reduce((sum, r) => sum + inputTokens(r.body), 0)
    t.ok(Math.abs(record.cost - tokens / 1e6) < 1e-9, 'the cost is the input tokens the server counted')
    const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.match(JSON.parse(again.stdout)[0], { asked: 0, requests: 0, cached: ROWS.length * 3 })
    t.equal(server.answered.length, ROWS.length * 3 * 5, 'the second run asks nothing')
    const more = await cli(['run', 'spam.judge.yaml', '--json'], { ...env, ENGINE_SAMPLES: '9' }, dir)
    t.match(JSON.parse(more.stdout)[0], { asked: 0 }, 'nor does a run with another k: the answers are stored')
  },
)

t.test('p is the share of the k samples, at ENGINE_SAMPLES and ENGINE_SAMPLE_TEMPERATURE', async (t) => {
  const { server, dir, env } = await setUp(t, { drawn: inTurn([0, 1, 0, 0]) })
  const run = await cli(
    ['run', 'spam.judge.yaml', '--out', 'out.csv'],
    { ...env, ENGINE_SAMPLES: '4', ENGINE_SAMPLE_TEMPERATURE: '0.5' },
    dir,
  )
  t.equal(run.code, 0, run.stderr)
  t.equal(server.answered.length, ROWS.length * 3 * 4)
  t.ok(
    server.answered.every((r) => r.body.temperature === 0.5),
    'at the temperature set',
  )
  const rows: Record<string, string>[] = parse(readFileSync(join(dir, 'out.csv'), 'utf8'), { columns: true })
  for (const name of ['is_spam', 'topic', 'urgency'])
    t.same(
      rows.map((row) => row[`${name}.p`]),
      rows.map(() => '0.75'),
      `${name}: three of four`,
    )
})

t.test('ENGINE_SAMPLES and ENGINE_SAMPLE_TEMPERATURE out of range stop the command, naming the variable', async (t) => {
  const { server, dir, env } = await setUp(t)
  const zero = await cli(['run', 'spam.judge.yaml'], { ...env, ENGINE_SAMPLES: '0' }, dir)
  t.not(zero.code, 0)
  t.match(zero.stderr, /ENGINE_SAMPLES must be a whole number of answers, 1 or more, not "0"/)
  const hot = await cli(['run', 'spam.judge.yaml'], { ...env, ENGINE_SAMPLE_TEMPERATURE: '1.5' }, dir)
  t.not(hot.code, 0)
  t.match(hot.stderr, /ENGINE_SAMPLE_TEMPERATURE must be a temperature above 0 and at most 1 \(Anthropic's most\)/)
  t.equal(server.requests.length, 0, 'nothing asked')
})

t.test('judge models lists GET /v1/models', async (t) => {
  const { server, dir, env } = await setUp(t, { models: ['claude-haiku-4-5-20251001', 'claude-sonnet-4-5'] })
  const result = await cli(['models', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(result.code, 0, result.stderr)
  t.same(
    JSON.parse(result.stdout).models.map((m: { name: string }) => m.name),
    ['claude-haiku-4-5-20251001', 'claude-sonnet-4-5'],
  )
  t.match(server.requests[0], { method: 'GET', path: '/v1/models?limit=1000', headers: { 'x-api-key': KEY } })
})

const OVERLOADED = { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }
const LIMITED = {
  status: 429,
  headers: { 'retry-after': '7' },
  body: { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your limit' } },
}

for (const [name, failure, wait] of [
  ['a 529 overloaded_error', OVERLOADED, 0],
  ['a 429 rate_limit_error with retry-after', LIMITED, 7000],
] as const)
  t.test(`${name} is waited out, and the run completes`, async (t) => {
    const { server, dir, env } = await setUp(t, { reply: (_r, index) => (index === 0 ? failure : undefined) })
    const clock = createVirtualClock()
    const run = await cli(['run', 'spam.judge.yaml', '--json', '--concurrency', '1'], env, dir, {
      now: clock.now,
      sleep: clock.sleep,
    })
    t.equal(run.code, 0, run.stderr)
    t.match(JSON.parse(run.stdout)[0], { rows: ROWS.length, status: 'complete', cached: 0 })
    t.match(run.stderr, failure.status === 529 ? /1 overloaded \(529\)/ : /1 requests? refused for the rate \(429\)/)
    // The row's other questions, asked at once with the one refused, are asked again with it.
    t.ok(server.answered.length >= ROWS.length * 3, 'every question answered in the end')
    t.ok(clock.slept >= wait, `the run slept ${clock.slept} ms, at least the ${wait} ms the engine named`)
  })

t.test('a 401 says the engine refused the key, and never shows it', async (t) => {
  const { dir, env } = await setUp(t)
  const run = await cli(['run', 'spam.judge.yaml'], { ...env, ENGINE_API_KEY: 'sk-ant-api03-Wrong-0000' }, dir)
  t.not(run.code, 0)
  t.match(run.stderr, /engine answered 401: invalid x-api-key \[redacted\]/)
  t.notMatch(run.stderr + run.stdout, /sk-ant-api03-Wrong-0000/)
})

t.test('judge run --batch sends one message batch, waits for it and lands its answers', async (t) => {
  const { server, dir, env } = await setUp(t, { batch: () => ({ polls: 2 }) })
  const run = await cli(['run', 'spam.judge.yaml', '--batch', '--json'], env, dir)
  t.equal(run.code, 0, run.stderr)
  t.equal(server.batches.length, 1, 'one batch')
  t.equal(server.batches[0].requests.length, ROWS.length * 3 * 5, 'k lines a question')
  t.equal(server.answered.length, 0, 'nothing asked one by one')
  t.equal(JSON.parse(run.stdout)[0].requests, ROWS.length * 3 * 5)
  const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.match(JSON.parse(again.stdout)[0], { asked: 0, cached: ROWS.length * 3 })
  t.equal(server.answered.length, 0, 'the batch answers are in the store')
})
