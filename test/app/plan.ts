import t from 'tap'
import { checkPlans, dataFileOf, lastFingerprints, modelsOf, planRows, planSource, rowsOf } from '../../src/app/plan.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { runRows } from '../../src/app/run.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { dataFiles } from '../helpers/versioned-engine.ts'
import type { JudgmentPlan } from '../../src/core/judge/plan.ts'
import type { SourcedRow } from '../../src/core/types.ts'
import { CostCapError, MissingKeyError, UsageError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'

const yaml = (name: string, more = '') =>
  `name: ${name}\nstate: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n${more}`
const a = spec(yaml('a', 'data: messages.csv\nmodel: m-a\n'), '/specs/a.judge.yaml')
const b = spec(yaml('b', 'data: messages.csv\n'), '/specs/b.judge.yaml')
const c = spec(yaml('c', 'data: other.csv\n'), '/specs/c.judge.yaml')
const none = spec(yaml('none'), '/specs/none.judge.yaml')
const files = createMemoryFiles({ rows: { '/specs/messages.csv': ['x', 'y', 'x'].map((message) => ({ message })) } })
const source = { kind: 'file', file: '/specs/messages.csv', label: 'messages.csv' } as const

function plan(over: Partial<JudgmentPlan>): JudgmentPlan {
  return {
    judgment: 'a',
    model: 'm',
    rows: 1,
    states: 1,
    duplicates: 0,
    cached: 0,
    ask: 1,
    requests: 1,
    estimate: 0.001,
    unknown: 0,
    questions: [],
    ...over,
  }
}

t.test('the data file is the one given, else the data: the judgments agree on', async (t) => {
  t.equal(dataFileOf('/elsewhere.csv', [a, c]), '/elsewhere.csv')
  t.equal(dataFileOf(undefined, [a, b]), '/specs/messages.csv')
  t.throws(() => dataFileOf(undefined, [a, c]), new UsageError('the judgments name different data files; give --data'))
  t.throws(
    () => dataFileOf(undefined, [none]),
    new UsageError('no data file: give --data FILE or set data: in the spec'),
  )
})

t.test('a plan reads the rows once and counts per judgment, asking nothing', async (t) => {
  const engine = createFakeEngine()
  const plans = await planRows(app(deps(engine), files), project(a, b), [a, b], source)
  t.match(plans, [
    { judgment: 'a', model: 'm-a', rows: 3, states: 2, duplicates: 1, ask: 2, requests: 2, cached: 0 },
    { judgment: 'b', model: 'jev-test', rows: 3, states: 2 },
  ])
  t.equal(engine.calls.length, 0)
  const inHand: SourcedRow[] = [{ row: { message: 'z' }, where: 'row 1' }]
  t.match(await planRows(app(deps(engine)), project(a), [a], { kind: 'rows', rows: inHand }), [{ rows: 1, states: 1 }])
})

t.test('a plan of a source also gives the distinct states each judgment saw', async (t) => {
  const { plans, seen } = await planSource(app(deps(createFakeEngine()), files), project(a, b), [a, b], source)
  t.same(plans, await planRows(app(deps(createFakeEngine()), files), project(a, b), [a, b], source))
  t.same([...seen.keys()], ['a', 'b'])
  for (const set of seen.values()) {
    t.equal(set.size, 2)
    t.ok(set.has(stateHash({ message: 'x' })) && set.has(stateHash({ message: 'y' })))
  }
})

t.test('rows come from the files port for a file, and as they are for rows in hand', async (t) => {
  const read: SourcedRow[] = []
  for await (const row of rowsOf(app(deps(null), files), source)) read.push(row)
  t.same(
    read.map((r) => r.where),
    ['messages.csv:2', 'messages.csv:3', 'messages.csv:4'],
  )
  const inHand: SourcedRow[] = [{ row: {}, where: 'here' }]
  t.equal(rowsOf(app(deps(null)), { kind: 'rows', rows: inHand }), inHand)
})

t.test('plans above the cap are refused, naming the first over it and carrying every plan', async (t) => {
  const plans = [plan({ judgment: 'a', estimate: 0.001 }), plan({ judgment: 'b', estimate: 0.5, ask: 7, requests: 3 })]
  const error = t.throws(() => checkPlans(deps(createFakeEngine()), plans, 0.1)) as CostCapError
  t.ok(error instanceof CostCapError)
  t.match(error, { judgment: 'b', estimate: 0.5, cap: 0.1, message: /judgment b: asking 7 answers in 3 requests/ })
  t.equal(error.context.plans, plans)
})

t.test('plans that must ask are refused without an engine key; plans that ask nothing are not', async (t) => {
  t.throws(
    () => checkPlans(deps(null), [plan({ ask: 0 }), plan({ judgment: 'b', ask: 2 })], 1),
    new MissingKeyError('b'),
  )
  t.doesNotThrow(() => checkPlans(deps(null), [plan({ ask: 0, requests: 0, estimate: 0 })], 1))
  t.doesNotThrow(() => checkPlans(deps(createFakeEngine()), [plan({})], 1))
})

t.test("each judgment is asked with its spec's model, else the default", async (t) => {
  t.same(modelsOf(deps(null), [a, b]), { a: 'm-a', b: 'jev-test' })
})

t.test("the plan reads each judgment's last recorded fingerprints, and none before a run recorded them", async (t) => {
  const store = createMemoryStore()
  const d = deps(createFakeEngine(), store)
  const spam = spec()
  t.same([...lastFingerprints(store, [spam])], [])
  const withData = app(d, dataFiles({ '/specs/d.csv': [1, 2] }))
  await runRows(withData, {
    project: project(spam),
    specs: [spam],
    source: { kind: 'file', file: '/specs/d.csv', label: 'd.csv' },
    cap: 1,
    concurrency: 1,
  })
  const reworded = spec(SPAM_YAML.replace('How urgent is the message for its reader?', 'How urgent is it?'))
  const [planned] = await planRows(withData, project(reworded), [reworded], {
    kind: 'file',
    file: '/specs/d.csv',
    label: 'd.csv',
  })
  t.same(
    planned.questions.map((q) => [q.question, q.changed, q.stale]),
    [
      ['is_spam', false, 0],
      ['topic', false, 0],
      ['urgency', true, 2],
    ],
  )
  t.match(planned, { states: 2, cached: 4, ask: 2, requests: 2 })
})
