import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { inTurn, openAiEnv, startOpenAiServer } from './helpers/openai-server.ts'
import { smsCsv, smsMessages } from './helpers/sms.ts'

// The example spec judged end to end with ENGINE=openai against a local server speaking OpenAI's
// chat completions with log probabilities, as vLLM, llama.cpp's server and Ollama do.

const EXAMPLE = resolve(ROOT, 'examples/sms')
const files = () => ({
  'spam.judge.yaml': readFileSync(resolve(EXAMPLE, 'spam.judge.yaml'), 'utf8'),
  'spam.key.csv': readFileSync(resolve(EXAMPLE, 'spam.key.csv'), 'utf8'),
  'messages.csv': smsCsv(30),
})

t.test(
  'judge plan and judge run: one request per question, answers from the top log probabilities, cost from usage',
  async (t) => {
    const dir = t.testdir(files())
    const server = await startOpenAiServer()
    t.teardown(() => server.close())
    const env = openAiEnv(server, { ENGINE_PRICE_PER_MTOK: '0.1' })
    const distinct = new Set(
      smsMessages()
        .slice(0, 30)
        .map((r) => r.message),
    ).size
    const plan = await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(plan.code, 0, plan.stderr)
    const [p] = JSON.parse(plan.stdout)
    t.match(p, {
      judgment: 'spam',
      model: 'qwen2.5-7b-instruct',
      states: distinct,
      ask: distinct * 3,
      requests: distinct * 3,
    })
    const run = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.equal(run.code, 0, run.stderr)
    const [record] = JSON.parse(run.stdout)
    t.match(record, {
      rows: 30,
      asked: distinct * 3,
      requests: distinct * 3,
      model: 'qwen2.5-7b-instruct',
      status: 'complete',
    })
    t.equal(server.answered.length, distinct * 3)
    const promptTokens = server.answered.reduce(
      (sum, r) =>
        sum + Math.ceil(r.body.messages.map((m: { content: string }) => m.content).join('\n').length / 4) + 16,
      0,
    )
    t.ok(
      Math.abs(record.cost - (promptTokens * 0.1) / 1e6) < 1e-9,
      'the cost is the prompt tokens the server counted, at ENGINE_PRICE_PER_MTOK',
    )
    t.ok(
      Math.abs(p.estimate - record.cost) / record.cost < 0.25,
      `the estimate ${p.estimate} is near the cost ${record.cost}`,
    )
    const again = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
    t.match(JSON.parse(again.stdout)[0], { asked: 0, requests: 0, cached: 90 })
    t.equal(server.answered.length, distinct * 3, 'the second run asks nothing')
  },
)

t.test('the server answers from the store the CLI filled, and asks the engine for a new row', async (t) => {
  const dir = t.testdir(files())
  const engine = await startOpenAiServer()
  t.teardown(() => engine.close())
  const env = { ENGINE: 'openai', ENGINE_URL: engine.url, ENGINE_MODEL: 'llama3.2' }
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'messages.csv'], env, dir)).code, 0)
  const asked = engine.answered.length
  const server = await startJudgeServer(t, dir, env)
  const known = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: smsMessages()[0].message } })
  t.equal(known.status, 200, known.text)
  t.same(
    Object.values<any>(known.body).map((a) => a.cached),
    [true, true, true],
  )
  const fresh = await server.post('/v1/judge', {
    path: 'spam.judge.yaml',
    row: { message: 'URGENT! Your account is locked, reply with your PIN' },
  })
  t.equal(fresh.status, 200, fresh.text)
  t.same(Object.keys(fresh.body).sort(), ['is_spam', 'topic', 'urgency'])
  t.match(fresh.body.is_spam, { label: /^(yes|no)$/, cached: false, route: /^(block|review|deliver)$/ })
  t.match(fresh.body.urgency, { label: /^(low|medium|high)$/ })
  t.equal(engine.answered.length, asked + 3, 'three questions, three requests')
})

t.test('a server that answers no label is a 502 naming the question, and nothing is stored', async (t) => {
  const dir = t.testdir(files())
  const engine = await startOpenAiServer({ top: () => [{ token: 'I', logprob: -0.01 }] })
  t.teardown(() => engine.close())
  const server = await startJudgeServer(t, dir, { ENGINE: 'openai', ENGINE_URL: engine.url, ENGINE_MODEL: 'm' })
  const res = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'hello' } })
  t.equal(res.status, 502)
  t.match(
    res.body.error,
    /the engine's answer is unusable: question "(is_spam|topic|urgency)": the model answered "I", which begins none of the labels/,
  )
})

t.test(
  'a model without log probabilities is sampled: k per question once learnt, p the share, the plan counting k',
  async (t) => {
    const dir = t.testdir(files())
    const server = await startOpenAiServer({ noLogprobs: true, drawn: inTurn([0, 1, 0]) })
    t.teardown(() => server.close())
    const env = openAiEnv(server, { ENGINE_SAMPLES: '3', ENGINE_SAMPLE_TEMPERATURE: '1.5' })
    const distinct = new Set(
      smsMessages()
        .slice(0, 30)
        .map((r) => r.message),
    ).size
    const run = await cli(['run', 'spam.judge.yaml', '--json', '--concurrency', '1', '--out', 'out.csv'], env, dir)
    t.equal(run.code, 0, run.stderr)
    t.equal(server.answered.length, 3 + distinct * 3 * 3, 'the first row once each, then every row k times')
    t.match(JSON.parse(run.stdout)[0], { asked: distinct * 3, requests: 3 + distinct * 3 * 3 })
    t.same(
      [...new Set(server.answered.slice(3).map((r) => r.body.temperature))],
      [1.5],
      'every sample at ENGINE_SAMPLE_TEMPERATURE',
    )
    const p = readFileSync(resolve(dir, 'out.csv'), 'utf8')
      .split('\n')
      .slice(1, -1)
      .map((line) => line.includes('0.666667'))
    t.ok(p.every(Boolean), 'every row: two of three')
    const plan = await cli(['plan', 'spam.judge.yaml', '--json', '--data', 'messages.csv'], env, dir)
    t.equal(plan.code, 0, plan.stderr)
    t.match(JSON.parse(plan.stdout)[0], { ask: 0, requests: 0 }, 'all stored')
  },
)

t.test('ENGINE_SAMPLES and ENGINE_SAMPLE_TEMPERATURE out of range stop the command, naming the variable', async (t) => {
  const dir = t.testdir(files())
  const server = await startOpenAiServer()
  t.teardown(() => server.close())
  const many = await cli(['plan', 'spam.judge.yaml'], openAiEnv(server, { ENGINE_SAMPLES: '2.5' }), dir)
  t.not(many.code, 0)
  t.match(many.stderr, /ENGINE_SAMPLES must be a whole number of answers, 1 or more, not "2.5"/)
  const hot = await cli(['plan', 'spam.judge.yaml'], openAiEnv(server, { ENGINE_SAMPLE_TEMPERATURE: '0' }), dir)
  t.not(hot.code, 0)
  t.match(hot.stderr, /ENGINE_SAMPLE_TEMPERATURE must be a temperature above 0 and at most 2, not "0"/)
})
