import t from 'tap'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { judgeSpec } from '../../../src/core/judge/judge-row.ts'
import { createPlanner } from '../../../src/core/judge/plan.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { estimateStateTokens, tokenCost } from '../../../src/core/judge/cost.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { deps } from '../../helpers/deps.ts'
import { project, spec, SPAM_YAML } from '../../helpers/specs.ts'

const spam = spec()

t.test(
  'a plan counts rows, distinct states, duplicates apart from cached answers, answers and requests to ask',
  async (t) => {
    const d = deps(createFakeEngine())
    await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row: { message: 'seen' }, where: 'row' })
    const planner = createPlanner(d, project(spam), [spam])
    for (const message of ['seen', 'new one', 'new one', 'another', 'seen']) planner.add({ message }, 'row')
    const [plan] = planner.result()
    const estimate =
      tokenCost(estimateStateTokens({ message: 'new one' }, 3), 0.042) +
      tokenCost(estimateStateTokens({ message: 'another' }, 3), 0.042)
    const questions = spam.questions.map((q) => ({
      question: q.name,
      fingerprint: q.fingerprint,
      last_run_fingerprint: null,
      changed: false,
      stale: 0,
      refill: 0,
    }))
    t.same(plan, {
      judgment: 'spam',
      model: 'jev-test',
      rows: 5,
      states: 3,
      duplicates: 2,
      cached: 3,
      ask: 6,
      requests: 2,
      estimate,
      unknown: 0,
      questions,
    })
  },
)

t.test('on an empty store a file of repeated rows has duplicates and no cached answer', async (t) => {
  const planner = createPlanner(deps(createFakeEngine()), project(spam), [spam])
  for (const message of ['a', 'b', 'a', 'a', 'c', 'b']) planner.add({ message }, 'row')
  t.match(planner.result()[0], { rows: 6, states: 3, duplicates: 3, cached: 0, ask: 9, requests: 3 })
  t.equal(planner.seen('spam').size, 3, 'the distinct states, for the run to take over')
  t.throws(() => planner.seen('other'), RangeError, 'a judgment the plan did not plan')
})

t.test(
  'a question reworded since the last run: its answers under the old wording no longer apply, with the cost to ask them again',
  async (t) => {
    const d = deps(createFakeEngine())
    for (const message of ['one', 'two', 'three'])
      await judgeSpec({ deps: d, ledger: createLedger(1) }, spam, { row: { message }, where: 'row' })
    const reworded = spec(SPAM_YAML.replace('What is the message mainly about?', 'What is the message about?'))
    const last = new Map([['spam', Object.fromEntries(spam.questions.map((q) => [q.name, q.fingerprint]))]])
    const planner = createPlanner(d, project(reworded), [reworded], last)
    for (const message of ['one', 'two', 'one', 'four']) planner.add({ message }, 'row')
    const [plan] = planner.result()
    const topic = reworded.questions[1]
    t.same(
      plan.questions.map((q) => [q.question, q.changed, q.stale]),
      [
        ['is_spam', false, 0],
        ['topic', true, 2],
        ['urgency', false, 0],
      ],
    )
    t.match(plan.questions[1], { fingerprint: topic.fingerprint, last_run_fingerprint: spam.questions[1].fingerprint })
    const refill =
      tokenCost(estimateStateTokens({ message: 'one' }, 1), 0.042) +
      tokenCost(estimateStateTokens({ message: 'two' }, 1), 0.042)
    t.ok(Math.abs(plan.questions[1].refill - refill) < 1e-15, 'one question per request, for the stale states only')
    t.match(plan, { rows: 4, states: 3, duplicates: 1, ask: 2 + 3, requests: 3 })
  },
)

t.test('a dependent whose dependency is not cached has an unknown state, asked in full', async (t) => {
  const base = parseSpec(
    'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, french]\n',
    '/specs/lang.judge.yaml',
  )
  const dependent = parseSpec(
    'state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n',
    '/specs/tone.judge.yaml',
  )
  const d = deps(
    createFakeEngine({
      answer: (q): Record<string, number> => (q.name === 'lang' ? { en: 0.9, french: 0.1 } : { yes: 0.5, no: 0.5 }),
    }),
  )
  await judgeSpec({ deps: d, ledger: createLedger(1) }, base, { row: { message: 'known' }, where: 'row' })
  const planner = createPlanner(d, project(base, dependent), [dependent])
  planner.add({ message: 'known' }, 'r1')
  planner.add({ message: 'unknown' }, 'r2')
  const [lang, tone] = planner.result()
  t.match(lang, { judgment: 'lang', rows: 2, ask: 1, requests: 1, unknown: 0 })
  t.match(tone, { judgment: 'tone', rows: 2, states: 2, ask: 2, requests: 2, unknown: 1 })
  const expected =
    tokenCost(estimateStateTokens({ message: 'known', 'lang.lang': 'en' }, 1), 0.042) +
    tokenCost(estimateStateTokens({ message: 'unknown', 'lang.lang': 'french' }, 1), 0.042)
  t.ok(Math.abs(tone.estimate - expected) < 1e-15, 'the longest label stands in for the unknown one')
})

t.test('a row lacking a state column fails the plan with where it is', async (t) => {
  const planner = createPlanner(deps(null), project(spam), [spam])
  t.throws(() => planner.add({ text: 'x' }, 'data.csv:4'), /data\.csv:4: the row lacks the state column "message"/)
})

t.test("a spec's samples: reach the engine's estimate, so that the plan counts k requests", async (t) => {
  const engine = {
    ...createFakeEngine(),
    estimate: (r: { samples?: number; questions: readonly unknown[] }) => ({
      inputTokens: 1,
      requests: (r.samples ?? 1) * r.questions.length,
    }),
  }
  const sampled = { ...spam, samples: 4 }
  const planner = createPlanner(deps(engine), project(sampled), [sampled])
  for (const message of ['a', 'b']) planner.add({ message }, 'row')
  t.match(planner.result()[0], { ask: 6, requests: 2 * 3 * 4 })
})

t.test("asking a reworded question again is priced at the spec's samples: too", async (t) => {
  const engine = {
    ...createFakeEngine(),
    estimate: (r: { samples?: number; questions: readonly unknown[] }) => ({
      inputTokens: (r.samples ?? 1) * 1e6,
      requests: (r.samples ?? 1) * r.questions.length,
    }),
  }
  const d = deps(engine)
  const sampled = { ...spam, samples: 4 }
  await judgeSpec({ deps: d, ledger: createLedger(1) }, sampled, { row: { message: 'one' }, where: 'row' })
  const reworded = {
    ...spec(SPAM_YAML.replace('What is the message mainly about?', 'What is the message about?')),
    samples: 4,
  }
  const last = new Map([['spam', Object.fromEntries(spam.questions.map((q) => [q.name, q.fingerprint]))]])
  const planner = createPlanner(d, project(reworded), [reworded], last)
  planner.add({ message: 'one' }, 'row')
  t.equal(planner.result()[0].questions[1].refill, tokenCost(4e6, d.pricePerMtok), 'k = 4 requests of 1e6 tokens')
})
