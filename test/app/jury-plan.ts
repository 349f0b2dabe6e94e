import t from 'tap'
import {
  createJuryPlanner,
  estimateShare,
  refillShare,
  withJuryTotals,
  type JurorPlan,
  type JuryPlan,
} from '../../src/app/jury-plan.ts'
import { checkPlans, planJuries, planRows } from '../../src/app/plan.ts'
import { estimateStateTokens, tokenCost } from '../../src/core/judge/cost.ts'
import { app } from '../helpers/deps.ts'
import { juryDeps, juryProject, jurySpec, juryStore, putLabel } from '../helpers/jury-project.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

// m0…m10 are answered by every model (c but for m10); `new` by none.
const rows = [{ message: 'm0' }, { message: 'm10' }, { message: 'new' }, { message: 'm0' }]
const source = { kind: 'rows' as const, rows: rows.map((row, i) => ({ row, where: `row ${i + 1}` })) }
const defaultRow = (message: string) => tokenCost(estimateStateTokens({ message }, 3), 0.042)

t.test('each juror of a jury is planned apart, at its engine and price; its stored answers cost nothing', async (t) => {
  const store = juryStore()
  const { plans, juries } = await planJuries(app(juryDeps(store)), juryProject, [jurySpec], source)
  t.equal(plans.length, 1)
  t.equal(juries.length, 1)
  const [jury] = juries
  t.equal(jury.judgment, 'spam')
  t.same(
    jury.jurors.map((j) => [j.model, j.engine, j.cached, j.ask, j.requests]),
    [
      ['a', null, 6, 3, 1],
      ['oa-b', 'openai', 6, 3, 1],
      ['c', null, 3, 6, 2],
    ],
    'three distinct states: m0 and m10 stored but for c on m10, `new` stored for none',
  )
  t.equal(jury.jurors[0].estimate, defaultRow('new'), 'a: one request at the default estimate and price')
  t.equal(jury.jurors[1].estimate, tokenCost(1000, 3), "b: one request of 1,000 tokens at b's $3")
  t.equal(jury.jurors[2].estimate, defaultRow('m10') + defaultRow('new'))
  t.same([jury.ask, jury.requests], [12, 4])
  t.equal(jury.estimate, jury.jurors[0].estimate + jury.jurors[1].estimate + jury.jurors[2].estimate, 'the total')
})

t.test(
  'a batch price holds for the jurors on the configured engine, not for one on an engine of its own',
  async (t) => {
    const store = juryStore()
    const { juries } = await planJuries(app(juryDeps(store)), juryProject, [jurySpec], source, 1)
    t.equal(juries[0].jurors[0].estimate, tokenCost(estimateStateTokens({ message: 'new' }, 3), 1))
    t.equal(juries[0].jurors[1].estimate, tokenCost(1000, 3))
  },
)

t.test('a one-model spec has no jury plan; planRows plans no juror', async (t) => {
  const store = juryStore()
  const one = spec(SPAM_YAML)
  const { juries } = await planJuries(
    app(juryDeps(store)),
    { ...juryProject, specs: [one], selected: [one] },
    [one],
    source,
  )
  t.same(juries, [])
  t.equal((await planRows(app(juryDeps(store)), juryProject, [jurySpec], source)).length, 1)
})

t.test("a jury that depends on another judgment plans each juror on the upstream's labels", async (t) => {
  const store = juryStore()
  const lang = spec(
    'name: lang\nstate: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n',
    '/specs/lang.judge.yaml',
  )
  const tone: typeof jurySpec = {
    ...spec(
      'name: tone\nstate: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n',
      '/specs/tone.judge.yaml',
    ),
    jurors: jurySpec.jurors,
  }
  putLabel(store, 'jev-test', lang.questions[0], 'm0', 'fr')
  const project = { path: '/specs', dir: '/specs', specs: [lang, tone], selected: [tone] }
  const planner = createJuryPlanner(juryDeps(store), project, [tone])
  planner.add({ message: 'm0' }, 'row 1')
  const [jury] = planner.result()
  t.equal(jury.judgment, 'tone')
  t.equal(jury.answers, null, 'a chained jury does not count its answers to ask apart')
  t.same(
    jury.jurors.map((j) => [j.model, j.ask]),
    [
      ['a', 1],
      ['oa-b', 1],
      ['c', 1],
    ],
  )
})

/** A juror's plan asking 6 answers in 2 requests at `estimate`, with its per-question cost of asking again. */
const juror = (model: string, estimate: number, refill: Record<string, number> = {}): JurorPlan => ({
  model,
  engine: null,
  cached: 0,
  ask: 6,
  requests: 2,
  estimate,
  refill,
})

t.test("a jury's plan line takes its jurors' requests and spend; other lines stay as they are", async (t) => {
  const line = { judgment: 'spam', model: 'jury:a+b', rows: 4, states: 4, duplicates: 0, unknown: 0, questions: [] }
  const plans = [
    { ...line, cached: 2, ask: 6, requests: 2, estimate: 0.1 },
    { ...line, judgment: 'other', cached: 0, ask: 1, requests: 1, estimate: 0.5 },
  ]
  const jury = (answers: number | null, ...jurors: JuryPlan['jurors']): JuryPlan => ({
    judgment: 'spam',
    jurors,
    answers,
    ask: 12,
    requests: 4,
    estimate: jurors.reduce((n, j) => n + j.estimate, 0),
  })
  const real = jury(5, juror('a', 0.25), juror('b', 0.5))
  t.same(withJuryTotals(plans, [real]), [{ ...plans[0], cached: 3, ask: 5, requests: 4, estimate: 0.75 }, plans[1]])
  t.match(withJuryTotals(plans, [jury(null, juror('a', 0.25))])[0], { cached: 2, ask: 6 }, 'chained: its own count')
  const mixed = jury(5, juror('simulated-a', 0.25), juror('b', 0.5))
  t.equal(estimateShare(mixed).shown, 0.5, "a simulated juror's share is not spent")
  t.equal(
    estimateShare(jury(5, juror('simulated-a', 0.25), juror('simulated-b', 0.5))).shown,
    0.75,
    'all simulated: all',
  )
})

t.test(
  'a jury with a real juror is held to the cap on the simulated engine; a jury of simulated jurors is not',
  async (t) => {
    const line = { judgment: 'spam', rows: 4, states: 4, duplicates: 0, unknown: 0, questions: [], cached: 0, ask: 6 }
    const plan = (model: string) => ({ ...line, model, requests: 2, estimate: 2 })
    const simulated = { ...juryDeps(juryStore()), engine: { ...juryDeps(juryStore()).engine!, spendsNothing: true } }
    t.doesNotThrow(() => checkPlans(simulated, [plan('jury:simulated-a+simulated-b'), plan('simulated-1')], 1))
    t.throws(() => checkPlans(simulated, [plan('jury:simulated-a+gpt-4o')], 1), { name: 'CostCapError' })
    t.throws(() => checkPlans(juryDeps(juryStore()), [plan('gpt-4o')], 1), { name: 'CostCapError' })
  },
)

t.test(
  "a question reworded since the jury's last run is priced again for each juror, at its engine and price",
  async (t) => {
    const store = juryStore()
    const reworded: typeof jurySpec = {
      ...spec(SPAM_YAML.replace('Is this message unsolicited advertising or a scam?', 'Is it spam?')),
      jurors: jurySpec.jurors,
    }
    const last = new Map([['spam', Object.fromEntries(jurySpec.questions.map((q) => [q.name, q.fingerprint]))]])
    const project = { ...juryProject, specs: [reworded], selected: [reworded] }
    const planner = createJuryPlanner(juryDeps(store), project, [reworded], last)
    for (const [i, { row }] of source.rows.entries()) planner.add(row, `row ${i + 1}`)
    const [jury] = planner.result()
    const question = (message: string) => tokenCost(estimateStateTokens({ message }, 1), 0.042)
    t.same(
      jury.jurors.map((j) => j.refill),
      [
        { is_spam: question('m0') + question('m10'), topic: 0, urgency: 0 },
        { is_spam: 2 * tokenCost(1000, 3), topic: 0, urgency: 0 },
        { is_spam: question('m0'), topic: 0, urgency: 0 },
      ],
      'a and b held the old wording on m0 and m10, c on m0 alone; b at its engine and its $3',
    )
    const unchanged = createJuryPlanner(juryDeps(store), project, [reworded])
    unchanged.add({ message: 'm0' }, 'row 1')
    t.same(unchanged.result()[0].jurors[0].refill, { is_spam: 0, topic: 0, urgency: 0 }, 'no last run: nothing')
  },
)

t.test(
  "a jury's question is asked again at its jurors' sum, what is spent shown, the simulated share apart",
  async (t) => {
    const questions = ['is_spam', 'topic'].map((question) => ({
      question,
      fingerprint: 'f',
      last_run_fingerprint: 'e',
      changed: true,
      stale: 2,
      refill: 0.001,
    }))
    const line = { judgment: 'spam', model: 'jury:simulated-a+b', rows: 2, states: 2, duplicates: 0, unknown: 0 }
    const plans = [{ ...line, cached: 0, ask: 6, requests: 2, estimate: 0.1, questions }]
    const mixed: JuryPlan = {
      judgment: 'spam',
      jurors: [juror('simulated-a', 0.25, { is_spam: 0.02, topic: 0 }), juror('b', 0.5, { is_spam: 0.03, topic: 0 })],
      answers: 6,
      ask: 12,
      requests: 4,
      estimate: 0.75,
    }
    t.same(
      withJuryTotals(plans, [mixed])[0].questions.map((q) => q.refill),
      [0.03, 0],
      "the real juror's spend",
    )
    t.same(refillShare(mixed, 'is_spam'), { shown: 0.03, simulated: 0.02 })
    t.same(estimateShare(mixed), { shown: 0.5, simulated: 0.25 })
    t.same(refillShare(mixed, 'urgency'), { shown: 0, simulated: 0 }, 'a question no juror priced costs nothing')
    const fake = { ...mixed, jurors: [mixed.jurors[0], { ...mixed.jurors[1], model: 'simulated-b' }] }
    t.same(refillShare(fake, 'is_spam'), { shown: 0.05, simulated: 0 }, 'all simulated: all of it, said simulated')
  },
)
