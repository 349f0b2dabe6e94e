import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as library from '../src/index.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { join } from 'node:path'

t.test('the library exports the judge operation, the handler, the configuration and the errors', async (t) => {
  for (const name of ['judge', 'createHandler', 'startServer', 'readConfig', 'createRuntime', 'JudgeError', 'CostCapError', 'MissingKeyError']) {
    t.type((library as Record<string, unknown>)[name], 'function', name)
  }
})

t.test('judge and createHandler share a store: a row judged by one is cached for the other', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = library.readConfig({ JUDGE_PROJECTS: dir }, dir)
  const engine = createFakeEngine()
  const runtime = library.createRuntime(config, { engine })
  t.teardown(() => runtime.close())
  const answers = await library.judge(join(dir, 'spam.judge.yaml'), { message: 'hello there' }, { config, runtime })
  t.equal(answers.is_spam.cached, false)
  const handler = library.createHandler(config, { engine })
  t.teardown(() => handler.close())
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const { port } = server.address() as AddressInfo
  const res = await fetch(`http://127.0.0.1:${port}/v1/judge`, { method: 'POST', body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello there' } }) })
  const body = (await res.json()) as library.Answers
  t.equal(body.is_spam.cached, true)
  t.equal(body.is_spam.label, answers.is_spam.label)
  t.equal(engine.calls.length, 1)
})
