import t from 'tap'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { judgeSpec } from '../../../src/core/judge/judge-row.ts'
import { createPlanner } from '../../../src/core/judge/plan.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { estimateStateTokens, tokenCost } from '../../../src/core/judge/cost.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { deps } from '../../helpers/deps.ts'
import { project, spec } from '../../helpers/specs.ts'

const spam = spec()

t.test('a plan counts rows, distinct states, cached answers, answers and requests to ask', async (t) => {
  const d = deps(createFakeEngine())
  await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row: { message: 'seen' }, where: 'row' })
  const planner = createPlanner(d, project(spam), [spam])
  for (const message of ['seen', 'new one', 'new one', 'another', 'seen']) planner.add({ message }, 'row')
  const [plan] = planner.result()
  const estimate = tokenCost(estimateStateTokens({ message: 'new one' }, 3), 0.042) + tokenCost(estimateStateTokens({ message: 'another' }, 3), 0.042)
  t.same(plan, { judgment: 'spam', model: 'jev-test', rows: 5, states: 3, cached: 15 - 6, ask: 6, requests: 2, estimate, unknown: 0 })
})

t.test('a dependent whose dependency is not cached has an unknown state, asked in full', async (t) => {
  const base = parseSpec('state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, french]\n', '/specs/lang.judge.yaml')
  const dependent = parseSpec('state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n', '/specs/tone.judge.yaml')
  const d = deps(createFakeEngine({ answer: (q): Record<string, number> => (q.name === 'lang' ? { en: 0.9, french: 0.1 } : { yes: 0.5, no: 0.5 }) }))
  await judgeSpec({ deps: d, ledger: createLedger(1) }, base, { row: { message: 'known' }, where: 'row' })
  const planner = createPlanner(d, project(base, dependent), [dependent])
  planner.add({ message: 'known' }, 'r1')
  planner.add({ message: 'unknown' }, 'r2')
  const [lang, tone] = planner.result()
  t.match(lang, { judgment: 'lang', rows: 2, ask: 1, requests: 1, unknown: 0 })
  t.match(tone, { judgment: 'tone', rows: 2, states: 2, ask: 2, requests: 2, unknown: 1 })
  const expected = tokenCost(estimateStateTokens({ message: 'known', 'lang.lang': 'en' }, 1), 0.042) + tokenCost(estimateStateTokens({ message: 'unknown', 'lang.lang': 'french' }, 1), 0.042)
  t.ok(Math.abs(tone.estimate - expected) < 1e-15, 'the longest label stands in for the unknown one')
})

t.test('a row lacking a state column fails the plan with where it is', async (t) => {
  const planner = createPlanner(deps(null), project(spam), [spam])
  t.throws(() => planner.add({ text: 'x' }, 'data.csv:4'), /data\.csv:4: the row lacks the state column "message"/)
})
