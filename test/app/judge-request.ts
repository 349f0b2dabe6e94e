import t from 'tap'
import { join } from 'node:path'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { readConfig } from '../../src/config.ts'
import { createRuntime } from '../../src/runtime.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const row = { message: 'WIN a FREE cruise! Reply YES' }

t.test('two folders with two stores judging the same row at once: each store asks once and gets its answers', async (t) => {
  const dir = t.testdir({ a: { 'spam.judge.yaml': SPAM_YAML }, b: { 'spam.judge.yaml': SPAM_YAML } })
  const engine = createFakeEngine({ latencyMs: 30 })
  const runtime = createRuntime(readConfig({}, dir), { engine })
  const a = loadProject(join(dir, 'a', 'spam.judge.yaml'))
  const b = loadProject(join(dir, 'b', 'spam.judge.yaml'))
  const [fromA, fromB, againA] = await Promise.all([a, b, a].map((project) => judgeRequest(runtime, { project, row, cap: 1 })))
  runtime.close()
  t.equal(engine.calls.length, 2, 'asked once per store, not once in all')
  t.same(Object.values(fromA.answers).map((x) => x.cached), [false, false, false])
  t.same(Object.values(fromB.answers).map((x) => x.cached), [false, false, false], 'the second store asked for itself')
  t.same(Object.values(againA.answers).map((x) => x.cached), [true, true, true], 'the same store joined the request in flight')
  for (const folder of ['a', 'b']) {
    const store = openSqliteStore(join(dir, folder, '.judge', 'store.sqlite'))
    t.teardown(() => store.close())
    for (const q of a.selected[0].questions) t.equal(store.countAnswers('fake-1', q.fingerprint), 1, `${folder}: ${q.name} is stored`)
  }
})

t.test('a server row counts its spend as the server\'s, and is refused past the daily cap', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const runtime = createRuntime(readConfig({}, dir), { engine: createFakeEngine() })
  t.teardown(() => runtime.close())
  const project = loadProject(join(dir, 'spam.judge.yaml'))
  await judgeRequest(runtime, { project, row, cap: 1, serverSpend: { dailyCap: null } })
  const [today] = runtime.depsFor(project).store.spendByDay('server', 1)
  t.match(today, { requests: 1 })
  t.ok(today.cost > 0)
  await judgeRequest(runtime, { project, row: { message: 'a library call' }, cap: 1 })
  t.equal(runtime.depsFor(project).store.spendByDay('server', 1)[0].requests, 1, 'a call without serverSpend is not the server\'s')
  await t.rejects(judgeRequest(runtime, { project, row: { message: 'over' }, cap: 1, serverSpend: { dailyCap: today.cost } }), { name: 'DailyCapError', status: 503 })
  const cached = await judgeRequest(runtime, { project, row, cap: 1, serverSpend: { dailyCap: 0 } })
  t.equal(cached.answers.is_spam.cached, true, 'a stored row is answered under any daily cap')
})
