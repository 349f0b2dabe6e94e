import t from 'tap'
import { judgeRequest, type JudgeInput } from '../../src/app/judge-request.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { CostCapError, NodeNeededError, UsageError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { langSpec, project, spec, toneSpec } from '../helpers/specs.ts'
import { join } from 'node:path'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { readConfig } from '../../src/config.ts'
import { createRuntime } from '../../src/runtime.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const lang = langSpec()
const tone = toneSpec()
const twin = spec(
  'state: [message]\nquestions:\n  polite:\n    ask: Courteous?\n    type: yes_no\n',
  '/specs/twin.judge.yaml',
)
const row = { message: 'bonjour', extra: 'ignored' }
const input = (more: Partial<JudgeInput> = {}): JudgeInput => ({ project: project(lang, tone), row, cap: 1, ...more })

t.test(
  'the selected judgments answer, merged by question; their results are returned, dependencies judged',
  async (t) => {
    const engine = createFakeEngine()
    const judged = await judgeRequest(app(deps(engine)), input())
    t.same(Object.keys(judged.answers), ['lang', 'polite'])
    t.same(
      judged.results.map((r) => r.spec.name),
      ['lang', 'tone'],
    )
    t.same(judged.results[1].state, { message: 'bonjour', 'lang.lang': judged.answers.lang.label })
    const one = await judgeRequest(app(deps(engine)), input({ judgment: 'tone' }))
    t.same(Object.keys(one.answers), ['polite'], 'a node answers for that judgment only')
    t.same(
      one.results.map((r) => r.spec.name),
      ['tone'],
    )
  },
)

t.test('with log, each selected judgment keeps the row once per sighting; without it nothing is kept', async (t) => {
  const d = deps(createFakeEngine())
  await judgeRequest(app(d), input({ judgment: 'tone' }))
  t.same(d.store.keptRows('tone'), [])
  await judgeRequest(app(d), input({ judgment: 'tone', log: true }))
  await judgeRequest(app(d), input({ judgment: 'tone', log: true }))
  const [kept] = d.store.keptRows('tone')
  t.match(kept, { judgment: 'tone', firstSeen: '2026-11-22T10:00:00.000', seen: 2 })
  t.equal(kept.stateHash, stateHash(kept.state))
  t.same(d.store.keptRows('lang'), [], 'a dependency judged along does not keep the row')
})

t.test('judgments sharing a question name need a node; an unknown node lists the judgments', async (t) => {
  const a = app(deps(createFakeEngine()))
  await t.rejects(
    judgeRequest(a, input({ project: project(lang, twin, tone) })),
    new NodeNeededError('judgments twin and tone both ask question polite'),
  )
  await t.rejects(
    judgeRequest(a, input({ judgment: 'nope' })),
    new UsageError('unknown node "nope"; the judgments here are: lang, tone'),
  )
})

t.test('above the cap nothing is asked; a row the store holds is answered under any cap', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  await t.rejects(judgeRequest(app(d), input({ cap: 0 })), CostCapError)
  t.equal(engine.calls.length, 0)
  await judgeRequest(app(d), input())
  const cached = await judgeRequest(app(d), input({ cap: 0 }))
  t.equal(cached.answers.polite.cached, true)
})

const cruise = { message: 'WIN a FREE cruise! Reply YES' }

t.test(
  'two folders with two stores judging the same row at once: each store asks once and gets its answers',
  async (t) => {
    const dir = t.testdir({ a: { 'spam.judge.yaml': SPAM_YAML }, b: { 'spam.judge.yaml': SPAM_YAML } })
    const engine = createFakeEngine({ latencyMs: 30 })
    const runtime = createRuntime(readConfig({}, dir), { engine })
    const a = loadProject(join(dir, 'a', 'spam.judge.yaml'))
    const b = loadProject(join(dir, 'b', 'spam.judge.yaml'))
    const [fromA, fromB, againA] = await Promise.all(
      [a, b, a].map((project) => judgeRequest(runtime, { project, row: cruise, cap: 1 })),
    )
    runtime.close()
    t.equal(engine.calls.length, 2, 'asked once per store, not once in all')
    t.same(
      Object.values(fromA.answers).map((x) => x.cached),
      [false, false, false],
    )
    t.same(
      Object.values(fromB.answers).map((x) => x.cached),
      [false, false, false],
      'the second store asked for itself',
    )
    t.same(
      Object.values(againA.answers).map((x) => x.cached),
      [true, true, true],
      'the same store joined the request in flight',
    )
    for (const folder of ['a', 'b']) {
      const store = openSqliteStore(join(dir, folder, '.judge', 'store.sqlite'))
      t.teardown(() => store.close())
      for (const q of a.selected[0].questions)
        t.equal(store.countAnswers('fake-1', q.fingerprint), 1, `${folder}: ${q.name} is stored`)
    }
  },
)

t.test("a server row counts its spend as the server's, and is refused past the daily cap", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const runtime = createRuntime(readConfig({}, dir), { engine: createFakeEngine() })
  t.teardown(() => runtime.close())
  const project = loadProject(join(dir, 'spam.judge.yaml'))
  await judgeRequest(runtime, { project, row: cruise, cap: 1, serverSpend: { dailyCap: null } })
  const [today] = runtime.depsFor(project).store.spendByDay('server', 1)
  t.match(today, { requests: 1 })
  t.ok(today.cost > 0)
  await judgeRequest(runtime, { project, row: { message: 'a library call' }, cap: 1 })
  t.equal(
    runtime.depsFor(project).store.spendByDay('server', 1)[0].requests,
    1,
    "a call without serverSpend is not the server's",
  )
  await t.rejects(
    judgeRequest(runtime, { project, row: { message: 'over' }, cap: 1, serverSpend: { dailyCap: today.cost } }),
    { name: 'RetryLaterError', status: 503 },
  )
  const cached = await judgeRequest(runtime, { project, row: cruise, cap: 1, serverSpend: { dailyCap: 0 } })
  t.equal(cached.answers.is_spam.cached, true, 'a stored row is answered under any daily cap')
})
