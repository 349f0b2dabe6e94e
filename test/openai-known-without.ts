import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { cli, ROOT } from './helpers/cli.ts'
import { openAiEnv, startOpenAiServer } from './helpers/openai-server.ts'
import { smsCsv, smsMessages } from './helpers/sms.ts'

// A model the store knows sends no log probabilities (its answers were sampled) is sampled from the first row of
// every later process, and planned at k requests per question, against a local OpenAI-compatible server.

const files = () => ({
  'spam.judge.yaml': readFileSync(resolve(ROOT, 'examples/sms/spam.judge.yaml'), 'utf8'),
  'messages.csv': smsCsv(5),
  'more.csv': smsCsv(12),
})

/** Distinct messages among the first `n`. */
const distinct = (n: number) =>
  new Set(
    smsMessages()
      .slice(0, n)
      .map((r) => r.message),
  ).size

t.test('a later process plans and asks k requests per question of a model whose answers were sampled', async (t) => {
  const dir = t.testdir(files())
  const server = await startOpenAiServer({ noLogprobs: true })
  t.teardown(() => server.close())
  const env = openAiEnv(server, { ENGINE_SAMPLES: '3' })
  const first = await cli(['run', 'spam.judge.yaml', '--json', '--concurrency', '1'], env, dir)
  t.equal(first.code, 0, first.stderr)
  t.equal(server.answered.length, 3 + distinct(5) * 3 * 3, 'the first process learns on its first row: 1 + k')
  const fresh = distinct(12) - distinct(5)
  const plan = await cli(['plan', 'spam.judge.yaml', '--json', '--data', 'more.csv'], env, dir)
  t.equal(plan.code, 0, plan.stderr)
  t.match(JSON.parse(plan.stdout)[0], { ask: fresh * 3, requests: fresh * 3 * 3 }, 'k per question')
  const before = server.answered.length
  const more = await cli(['run', 'spam.judge.yaml', '--json', '--data', 'more.csv', '--concurrency', '1'], env, dir)
  t.equal(more.code, 0, more.stderr)
  t.equal(server.answered.length - before, fresh * 3 * 3, 'k per question from the first row, none wasted')
  t.match(JSON.parse(more.stdout)[0], { asked: fresh * 3, requests: fresh * 3 * 3 })
})

t.test('a later process plans one request per question of a model that gave log probabilities', async (t) => {
  const dir = t.testdir(files())
  const server = await startOpenAiServer()
  t.teardown(() => server.close())
  const env = openAiEnv(server, { ENGINE_SAMPLES: '3' })
  const first = await cli(['run', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(first.code, 0, first.stderr)
  const plan = await cli(['plan', 'spam.judge.yaml', '--json', '--data', 'more.csv'], env, dir)
  t.equal(plan.code, 0, plan.stderr)
  const fresh = distinct(12) - distinct(5)
  t.match(JSON.parse(plan.stdout)[0], { ask: fresh * 3, requests: fresh * 3 })
})
