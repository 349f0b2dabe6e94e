import t from 'tap'
import { accuracyReport } from '../../src/app/accuracy.ts'
import { juryQuestions, rowsCost } from '../../src/app/juror-accuracy.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { fitJury, MIN_REVIEWED, patternsOf } from '../../src/core/jury/dawid-skene.ts'
import { juryFit, reviewedLabelsOf } from '../../src/core/jury/jury-fits.ts'
import { juryWeights } from '../../src/core/jury/jury-weights.ts'
import { verdictKey } from '../../src/core/review/verdicts.ts'
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
  juryVerdict,
  juryVerdicts,
  openaiEngine,
  putLabel,
} from '../helpers/jury-project.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'

/** The jury spec's figures from the store, with its deps, under these verdicts. */
const figuresOf = (store: Store, verdicts = juryVerdicts()) =>
  juryQuestions({ spec: jurySpec, verdicts, source: { store, deps: juryDeps(store) } })!

t.test("each juror's accuracy, the jury's, each against the jury, and each juror's cost", async (t) => {
  const store = juryStore()
  const figures = figuresOf(store)
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

const isSpam = jurySpec.questions[0]
const MODELS = ['a', 'oa-b', 'c']

t.test(
  'the weights while the jury counts votes: the fit judging uses, and the reviewed rows it still wants',
  async (t) => {
    const store = juryStore()
    const weights = figuresOf(store).is_spam.jury.weights
    // m0…m10 reviewed (m11 is ambiguous: no label), c never answered m10: ten with every juror's answer.
    t.match(weights, { kind: 'vote', reviewed: 11, complete: 10, needed: MIN_REVIEWED - 10, iterations: 0 })
    t.same(
      weights.jurors.map((j) => [j.model, j.accuracy, j.confusion, j.intervals]),
      MODELS.map((m) => [m, null, null, null]),
    )
    const reviewed = reviewedLabelsOf('spam', juryVerdicts().values()).get('is_spam')!
    // A fit made afresh (fits are kept per store: a store of its own is fitted anew), not the one juryQuestions kept.
    const fresh: Store = Object.create(store)
    const fit = juryFit({ store: fresh, jury: JURY, jurors: MODELS, question: isSpam, reviewed })
    t.same(weights, juryWeights(fit, MODELS), "the jury's own fit")
  },
)

/** 32 messages w0…w31, yes for the first 16: a wrong on w0 and w16 alone, b on every fourth, c saying yes to all. */
const TRUTH = Array.from({ length: 32 }, (_, i) => (i < 16 ? 'yes' : 'no'))
const SAYS: Record<string, (i: number) => string> = {
  a: (i) => (i === 0 || i === 16 ? flip(TRUTH[i]) : TRUTH[i]),
  'oa-b': (i) => (i % 4 === 0 ? flip(TRUTH[i]) : TRUTH[i]),
  c: () => 'yes',
}
function flip(label: string): string {
  return label === 'yes' ? 'no' : 'yes'
}

function weighedStore(): Store {
  const store = createMemoryStore()
  for (const [model, says] of Object.entries(SAYS))
    TRUTH.forEach((_, i) => putLabel(store, model, isSpam, `w${i}`, says(i)))
  return store
}
const weighedVerdicts = () =>
  new Map(
    TRUTH.map((label, i) => {
      const v = juryVerdict(`w${i}`, [label])
      return [verdictKey(v.judgment, v.question, v.state_hash), v]
    }),
  )

t.test('the weights once the jury weighs its jurors: each one as fitJury gives it on the same rows', async (t) => {
  const store = weighedStore()
  const weights = figuresOf(store, weighedVerdicts()).is_spam.jury.weights
  t.match(weights, { kind: 'jury', reviewed: 32, complete: 32, needed: 0, converged: true })
  const labels = isSpam.labels
  const rows = TRUTH.map((_, i) => MODELS.map((m) => labels.indexOf(SAYS[m](i))))
  const fit = fitJury({
    labels,
    jurors: 3,
    patterns: patternsOf(rows),
    anchors: rows.map((said, i) => ({ said, truth: labels.indexOf(TRUTH[i]) })),
  })
  t.equal(weights.iterations, fit.iterations)
  t.same(weights, juryWeights(fit, MODELS))
  // By hand: a wrong on 1 of 16 of each truth; the smoothing's one pseudo-count per cell, every row reviewed.
  t.equal(
    weights.jurors[0].confusion!.yes.yes.toFixed(6),
    (16 / 18).toFixed(6),
    'a says yes of a yes row: (15+1)/(16+2)',
  )
  t.equal(weights.jurors[1].confusion!.no.no.toFixed(6), (13 / 18).toFixed(6), 'b: (12+1)/(16+2)')
  t.equal(weights.jurors[2].confusion!.no.yes.toFixed(6), (17 / 18).toFixed(6), 'c says yes of a no row: (16+1)/(16+2)')
  t.equal(weights.prior.yes, 0.5)
  t.same(
    weights.jurors[2].intervals!.no.yes.map((x) => x.toFixed(3)),
    ['0.806', '1.000'],
    "Wilson's of 16 out of 16",
  )
})

t.test('without a store the weights are the equal vote over nothing', async (t) => {
  const weights = juryQuestions({ spec: jurySpec, verdicts: juryVerdicts(), source: null })!.topic.jury.weights
  t.match(weights, { kind: 'vote', reviewed: 0, complete: 0, needed: MIN_REVIEWED })
  t.same(weights.prior, { personal: 1 / 3, promotion: 1 / 3, service: 1 / 3 })
  t.same(
    weights.jurors.map((j) => j.model),
    ['a', 'b', 'c'],
  )
})

t.test("the accuracy report carries the weights in each question's jury", async (t) => {
  const store = weighedStore()
  const reviews = async () => new Map([...weighedVerdicts()].map(([k, v]) => [k, [v]]))
  const report = await accuracyReport(app(juryDeps(store), { reviews }), juryProject, jurySpec)
  t.match(report.questions.is_spam.jury!.weights, { kind: 'jury', needed: 0, jurors: [{ model: 'a' }, {}, {}] })
})
