import t from 'tap'
import { judgeRequest, type JudgeInput } from '../../src/app/judge-request.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { CostCapError, NodeNeededError, UsageError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { project, spec } from '../helpers/specs.ts'

const lang = spec('state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n', '/specs/lang.judge.yaml')
const tone = spec('state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n', '/specs/tone.judge.yaml')
const twin = spec('state: [message]\nquestions:\n  polite:\n    ask: Courteous?\n    type: yes_no\n', '/specs/twin.judge.yaml')
const row = { message: 'bonjour', extra: 'ignored' }
const input = (more: Partial<JudgeInput> = {}): JudgeInput => ({ project: project(lang, tone), row, cap: 1, ...more })

t.test('the selected judgments answer, merged by question; their results are returned, dependencies judged', async (t) => {
  const engine = createFakeEngine()
  const judged = await judgeRequest(app(deps(engine)), input())
  t.same(Object.keys(judged.answers), ['lang', 'polite'])
  t.same(judged.results.map((r) => r.spec.name), ['lang', 'tone'])
  t.same(judged.results[1].state, { message: 'bonjour', 'lang.lang': judged.answers.lang.label })
  const one = await judgeRequest(app(deps(engine)), input({ node: 'tone' }))
  t.same(Object.keys(one.answers), ['polite'], 'a node answers for that judgment only')
  t.same(one.results.map((r) => r.spec.name), ['tone'])
})

t.test('with log, each selected judgment keeps the row once per sighting; without it nothing is kept', async (t) => {
  const d = deps(createFakeEngine())
  await judgeRequest(app(d), input({ node: 'tone' }))
  t.same(d.store.keptRows('tone'), [])
  await judgeRequest(app(d), input({ node: 'tone', log: true }))
  await judgeRequest(app(d), input({ node: 'tone', log: true }))
  const [kept] = d.store.keptRows('tone')
  t.match(kept, { judgment: 'tone', firstSeen: '2026-11-22T10:00:00.000', seen: 2 })
  t.equal(kept.stateHash, stateHash(kept.state))
  t.same(d.store.keptRows('lang'), [], 'a dependency judged along does not keep the row')
})

t.test('judgments sharing a question name need a node; an unknown node lists the judgments', async (t) => {
  const a = app(deps(createFakeEngine()))
  await t.rejects(judgeRequest(a, input({ project: project(lang, twin, tone) })), new NodeNeededError('judgments twin and tone both ask question polite'))
  await t.rejects(judgeRequest(a, input({ node: 'nope' })), new UsageError('unknown node "nope"; the judgments here are: lang, tone'))
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
