import t from 'tap'
import { accuracyReport } from '../../src/app/accuracy.ts'
import { juryQuestions, rowsCost } from '../../src/app/juror-accuracy.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import type { Engine } from '../../src/ports/engine.ts'
import type { Store } from '../../src/ports/store.ts'
import { app, deps } from '../helpers/deps.ts'
import {
  DEFAULT_QUESTION_USD,
  JURY,
  juryDeps,
  juryProject,
  jurySpec,
  juryStore,
  juryVerdicts,
  openaiEngine,
} from '../helpers/jury-project.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'

t.test("each juror's accuracy, the jury's, each against the jury, and each juror's cost", async (t) => {
  const store = juryStore()
  const figures = juryQuestions({ spec: jurySpec, verdicts: juryVerdicts(), source: { store, deps: juryDeps(store) } })!
  const q = figures.is_spam
  t.match(q.jury, { model: JURY, rows: 10, correct: 8, accuracy: 0.8 })
  t.same(
    q.jurors.map((j) => [j.model, j.engine, j.rows, j.correct, j.accuracy]),
    [
      ['a', null, 10, 9, 0.9],
      ['oa-b', 'openai', 10, 7, 0.7],
      ['c', null, 10, 5, 0.5],
    ],
  )
  t.same(
    q.jurors.map((j) => j.versus_jury!.difference.toFixed(3)),
    ['0.100', '-0.100', '-0.300'],
  )
  t.equal(
    q.jurors[0].cost_usd.toFixed(10),
    (10 * DEFAULT_QUESTION_USD).toFixed(10),
    'a: ten rows at the default estimate',
  )
  t.equal(q.jurors[1].cost_usd.toFixed(10), '0.0300000000', "b: ten rows of 1,000 tokens at b's $3 per million")
  t.equal(q.jury.cost_usd.toFixed(10), (0.03 + 20 * DEFAULT_QUESTION_USD).toFixed(10), 'the jury: its jurors together')
  t.same(
    figures.topic.jurors.map((j) => j.rows),
    [0, 0, 0],
    'topic has no verdict',
  )
  t.equal(figures.topic.jury.cost_usd, 0)
})

t.test('a row whose values were forgotten is compared, and not priced', async (t) => {
  const store = juryStore()
  const forgetful: Store = {
    ...store,
    getStates: (hashes) => {
      const states = store.getStates(hashes)
      states.delete(stateHash({ message: 'm0' }))
      return states
    },
  }
  const source = { store: forgetful, deps: juryDeps(store) }
  const q = juryQuestions({ spec: jurySpec, verdicts: juryVerdicts(), source })!.is_spam
  t.equal(q.jury.rows, 10)
  t.equal(q.jurors[0].cost_usd.toFixed(10), (9 * DEFAULT_QUESTION_USD).toFixed(10))
})

t.test('a one-model spec has no jury figures; without a store the jurors have no rows', async (t) => {
  t.equal(juryQuestions({ spec: spec(SPAM_YAML), verdicts: juryVerdicts(), source: null }), null)
  const none = juryQuestions({ spec: jurySpec, verdicts: juryVerdicts(), source: null })!
  t.same(
    none.is_spam.jurors.map((j) => [j.model, j.rows, j.accuracy, j.versus_jury, j.cost_usd]),
    [
      ['a', 0, null, null, 0],
      ['b', 0, null, null, 0],
      ['c', 0, null, null, 0],
    ],
  )
  t.equal(none.is_spam.jury.model, 'jury:a+b+c')
})

t.test("rowsCost prices one request a row, times the k a juror's stored answer is the share of", async (t) => {
  const seen: unknown[] = []
  const engine: Engine = {
    ...openaiEngine,
    estimate: (r) => {
      seen.push([r.questions.map((q) => q.name), r.samples])
      return { inputTokens: 2e6, requests: 1 }
    },
  }
  const q = jurySpec.questions[0]
  const rows = ['x', 'y', 'z'].map((message) => ({ hash: stateHash({ message }), state: { message } }))
  const store = createMemoryStore()
  const stored = (message: string, extra: object) =>
    store.putAnswers(
      [answer({ model: 'oa-b', fingerprint: q.fingerprint, stateHash: stateHash({ message }), ...extra })],
      stateHash({ message }),
      { message },
    )
  stored('x', { source: 'samples', samples: 5 })
  stored('y', { source: 'logprobs', samples: null })
  const asks = { engine, pricePerMtok: 1 }
  t.equal(rowsCost(q, 'oa-b', asks, rows, store), 2 * 5 + 2 + 2, 'x sampled 5 times, y once, z not stored: once')
  t.equal(rowsCost(q, 'oa-b', asks, rows, null), 6, 'without a store: once a row')
  t.same(seen[0], [[q.name], 1], 'the estimate is of one request of this question')
})

t.test(
  'the accuracy report gives a jury spec its jury and jurors per question, a one-model spec neither',
  async (t) => {
    const store = juryStore()
    const reviews = async () => new Map([...juryVerdicts()].map(([k, v]) => [k, [v]]))
    const report = await accuracyReport(app(juryDeps(store), { reviews }), juryProject, jurySpec)
    t.match(report.questions.is_spam.jury, { model: JURY, rows: 10, accuracy: 0.8 })
    t.same(
      report.questions.is_spam.jurors!.map((j) => j.accuracy),
      [0.9, 0.7, 0.5],
    )
    const one = spec(SPAM_YAML)
    const plain = await accuracyReport(
      app(deps(null, store), { reviews }),
      { ...juryProject, specs: [one], selected: [one] },
      one,
    )
    t.notOk('jury' in plain.questions.is_spam, 'no jury field')
    t.notOk('jurors' in plain.questions.is_spam, 'no jurors field')
  },
)
