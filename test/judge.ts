import t from 'tap'
import { join } from 'node:path'
import { judge } from '../src/judge.ts'
import { readConfig } from '../src/config.ts'
import { createRuntime } from '../src/runtime.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

t.test('judge() answers a row through the engine, then from the store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const engine = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => engine.close())
  const config = readConfig({ ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }, dir)
  const first = await judge(join(dir, 'spam.judge.yaml'), { message: 'Free prize! Text WIN now' }, { config })
  t.same(Object.keys(first), ['is_spam', 'topic', 'urgency'])
  t.match(first.is_spam, {
    label: /^(yes|no)$/,
    p: Number,
    margin: Number,
    route: /^(block|review|deliver)$/,
    cached: false,
  })
  const runtime = createRuntime(config)
  t.teardown(() => runtime.close())
  const second = await judge(
    join(dir, 'spam.judge.yaml'),
    { message: 'Free prize! Text WIN now' },
    { config, runtime, node: 'spam' },
  )
  t.equal(second.is_spam.cached, true)
  t.equal(second.is_spam.label, first.is_spam.label)
  t.equal(engine.requests.length, 1)
})

t.test('judge() refuses above its cost cap, asking nothing', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const engine = await startSystemOneServer({ expectKey: 'k' })
  t.teardown(() => engine.close())
  const config = readConfig({ ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }, dir)
  await t.rejects(judge(join(dir, 'spam.judge.yaml'), { message: 'x' }, { config, maxCost: 0 }), /nothing was asked/)
  t.equal(engine.requests.length, 0)
})

t.test(
  "the judge-rows/judge entry gives the operation, its configuration and runtime, and the errors' base class",
  async (t) => {
    const entry = await import('../src/judge.ts')
    t.same(Object.keys(entry).sort(), ['JudgeError', 'createRuntime', 'judge', 'readConfig'])
  },
)
