import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as library from '../src/index.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { join } from 'node:path'

t.test('the library exports the judge operation, the handler, the configuration and the errors', async (t) => {
  for (const name of [
    'judge',
    'createHandler',
    'startServer',
    'readConfig',
    'createRuntime',
    'JudgeError',
    'CostCapError',
    'MissingKeyError',
    'StoreError',
  ]) {
    t.type((library as Record<string, unknown>)[name], 'function', name)
  }
})

t.test('the library exports the use cases, the project loader, and the adapters of the ports', async (t) => {
  const useCases = [
    'judgeRequest',
    'planRows',
    'checkPlans',
    'runRows',
    'testJudgments',
    'replayKept',
    'shadowRow',
    'queueTarget',
    'reviewQueue',
    'recordVerdict',
    'listRuns',
    'driftOf',
    'likeDriftOf',
    'cacheGroups',
    'pruneCache',
    'forgetRows',
    'forgetExpired',
    'loadProject',
  ]
  const adapters = [
    'createSystemOne',
    'createSimulatedEngine',
    'createOpenAi',
    'openSqliteStore',
    'storeHealth',
    'createLocalFiles',
    'engineFor',
    'serverSpend',
  ]
  for (const name of [...useCases, ...adapters]) t.type((library as Record<string, unknown>)[name], 'function', name)
})

t.test('a use case runs on the App the runtime builds, with the simulated engine', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': 'message\nhello\nWIN a prize now\n' })
  const runtime = library.createRuntime(library.readConfig({ ENGINE: 'simulated' }, dir))
  t.teardown(() => runtime.close())
  const project = library.loadProject(join(dir, 'spam.judge.yaml'))
  const source = { kind: 'file', file: join(dir, 'rows.csv'), label: 'rows.csv' } as const
  const [plan] = await library.planRows(runtime, project, project.selected, source)
  t.match(plan, { judgment: 'spam', model: library.SIMULATED_DEFAULT_MODEL, rows: 2, ask: 6 })
  const [run] = await library.runRows(runtime, { project, specs: project.selected, source, cap: 1, concurrency: 2 })
  t.match(run, { rows: 2, asked: 6, status: 'complete', model: 'simulated-1' })
  t.same(
    library.listRuns(runtime, project, null).map((r) => r.run_id),
    [run.run_id],
  )
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
  const res = await fetch(`http://127.0.0.1:${port}/v1/judge`, {
    method: 'POST',
    body: JSON.stringify({ path: 'spam.judge.yaml', row: { message: 'hello there' } }),
  })
  const body = (await res.json()) as library.Answers
  t.equal(body.is_spam.cached, true)
  t.equal(body.is_spam.label, answers.is_spam.label)
  t.equal(engine.calls.length, 1)
})

t.test('the root exports what the judge-rows/judge and judge-rows/server entries do, the same functions', async (t) => {
  const judgeEntry = await import('../src/judge.ts')
  const serverEntry = await import('../src/server.ts')
  const root = library as Record<string, unknown>
  for (const [name, value] of [...Object.entries(judgeEntry), ...Object.entries(serverEntry)])
    t.equal(root[name], value, name)
})
