import t from 'tap'
import { countFromPlan } from '../../../src/core/judge/count-from-plan.ts'
import { fitOf, judgeRows, labelCountsOf, type RowsOutcome } from '../../../src/core/judge/judge-rows.ts'
import { createLedger, type Ledger } from '../../../src/core/judge/ledger.ts'
import { createPlanner } from '../../../src/core/judge/plan.ts'
import { withDependencies } from '../../../src/core/judge/select.ts'
import type { SourcedRow, Spec } from '../../../src/core/types.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { deps } from '../../helpers/deps.ts'
import { langSpec, project, spec, toneSpec } from '../../helpers/specs.ts'

// Three judgments: spam (three question types and routes), lang, and tone, whose state holds lang's label.
const spam = spec()
const lang = langSpec()
const tone = toneSpec()
const folder = project(lang, tone, spam)
const specs = withDependencies(folder, [tone, spam])

/** A number from 0 to 1 that a message always gets. */
const score = (message: string) => [...message].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1009, 7) / 1009

// Answers of every kind: confident and unsure, so that every route of spam's is taken; option masses for the fit.
const engine = createFakeEngine({
  answer: (q, s) => {
    const x = score(`${q.name}:${s.message}`)
    if (q.type === 'yes_no') return { yes: x, no: 1 - x }
    return Object.fromEntries(q.labels.map((label, i) => [label, i === Math.floor(x * q.labels.length) ? 0.7 : 0.1]))
  },
  optionMass: (_q, s) => 0.5 + score(s.message) / 2,
})

/** 400 rows of 37 messages, in bursts of repeats: some messages once, some many times. */
function messages(): string[] {
  const out: string[] = []
  for (let i = 0; out.length < 400; i++) {
    const message = `message ${(i * 7) % 37}`
    for (let k = 0; k < 1 + ((i * 13) % 9); k++) out.push(message)
  }
  return out.slice(0, 400)
}
const rows = (list: readonly string[]): SourcedRow[] => list.map((message, i) => ({ row: { message }, where: `r${i}` }))

/** The tallies the plan of the rows keeps, per judgment. */
function planOf(d: ReturnType<typeof deps>, list: readonly string[]) {
  const planner = createPlanner(d, folder, [tone, spam])
  for (const { row, where } of rows(list)) planner.add(row, where)
  const plans = planner.result()
  return { plans, seen: new Map(specs.map((s) => [s.name, planner.seen(s.name)])) }
}

/** Everything an outcome and a ledger tell of a run, as plain data. */
function told(outcome: RowsOutcome, ledger: Ledger, judgment: Spec) {
  const name = judgment.name
  return {
    rows: outcome.rows.get(name),
    labels: labelCountsOf(outcome, name, 'r').sort((a, b) =>
      `${a.question}${a.label}`.localeCompare(`${b.question}${b.label}`),
    ),
    routes: [...(outcome.routes.get(name) ?? [])].map(([q, byRoute]) => [q, [...byRoute].sort()]),
    states: [...outcome.states.get(name)!.entries()],
    models: [...outcome.models.get(name)!.cached],
    asked: [...outcome.models.get(name)!.asked],
    fit: fitOf(outcome, judgment),
    ledger: ledger.tally(name),
  }
}

t.test('rows the store answers are counted from their plan as judging them row by row counts them', async (t) => {
  const d = deps(engine)
  const list = messages()
  await judgeRows({ deps: d, ledger: createLedger(1) }, specs, rows(list), { concurrency: 4 })
  const asked = engine.calls.length

  const { plans, seen } = planOf(d, list)
  t.ok(
    plans.every((p) => p.ask === 0),
    'the plan asks nothing',
  )
  const countedLedger = createLedger(1)
  const counted = countFromPlan(d, countedLedger, specs, seen)
  t.not(counted, null)

  const judgedLedger = createLedger(1)
  const judged = await judgeRows({ deps: d, ledger: judgedLedger }, specs, rows(list), {
    concurrency: 4,
    expected: planOf(d, list).seen,
  })
  t.equal(engine.calls.length, asked, 'neither asked the engine')
  for (const judgment of specs)
    t.same(told(counted!, countedLedger, judgment), told(judged, judgedLedger, judgment), judgment.name)

  const spamRoutes = counted!.routes.get('spam')!.get('is_spam')!
  t.same([...spamRoutes.keys()].sort(), ['block', 'deliver', 'review'], 'every route was taken, so each is compared')
  t.equal(counted!.rows.get('tone'), 400)
  t.equal(countedLedger.tally('tone').duplicates, 400 - 37)
  const squares = labelCountsOf(counted!, 'lang', 'r').reduce((n, c) => n + (c.squares ?? 0), 0)
  const m = new Map<string, number>()
  for (const message of list) m.set(message, (m.get(message) ?? 0) + 1)
  t.equal(
    squares,
    [...m.values()].reduce((n, k) => n + k * k, 0),
    "lang's labels add up to Σ m² over its states",
  )
})

t.test('a state whose answer went since the plan counts nothing: the rows are judged one by one', async (t) => {
  const d = deps(engine)
  const list = messages().slice(0, 40)
  await judgeRows({ deps: d, ledger: createLedger(1) }, specs, rows(list), { concurrency: 1 })
  const { seen } = planOf(d, list)
  const polite = tone.questions[0]
  t.ok(
    d.store.deleteAnswers({
      judgment: 'tone',
      question: 'polite',
      model: 'jev-test',
      fingerprint: polite.fingerprint,
    }) > 0,
  )

  const ledger = createLedger(1)
  t.equal(countFromPlan(d, ledger, specs, seen), null)
  t.same(ledger.tally('lang'), createLedger(1).tally('lang'), 'the ledger is untouched')
  const before = engine.calls.length
  const judged = await judgeRows({ deps: d, ledger }, specs, rows(list), { concurrency: 1, expected: seen })
  t.equal(judged.error, null)
  t.equal(judged.states.get('tone')!.size, new Set(list).size, "the rows are judged over the plan's tallies")
  t.ok(engine.calls.length > before, 'what went is asked again')
})

t.test('a judgment the plan has no tally of is not counted', async (t) => {
  const d = deps(engine)
  t.equal(countFromPlan(d, createLedger(1), specs, new Map()), null)
})
