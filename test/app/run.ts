import t from 'tap'
import type { JudgmentPlan } from '../../src/core/judge/plan.ts'
import { runRows, type RunInput } from '../../src/app/run.ts'
import { CostCapError, MissingKeyError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { langSpec, project, spec, toneSpec } from '../helpers/specs.ts'

const lang = langSpec()
const tone = toneSpec()
const other = spec(
  'state: [message]\nquestions:\n  short:\n    ask: Short?\n    type: yes_no\n',
  '/specs/other.judge.yaml',
)
const folder = project(lang, tone, other)
const MESSAGES = ['bonjour', 'hello', 'merci', 'hello', 'thanks']
const files = createMemoryFiles({ rows: { '/specs/messages.csv': MESSAGES.map((message) => ({ message })) } })
const source = { kind: 'file', file: '/specs/messages.csv', label: 'messages.csv' } as const

/** A run of tone (and so lang) over the five messages, cap $1, one row at a time. */
const input = (more: Partial<RunInput> = {}): RunInput => ({
  project: folder,
  specs: [tone],
  source,
  cap: 1,
  concurrency: 1,
  ...more,
})

t.test('above the cap nothing is asked, nothing is recorded, and the refusal carries every plan', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  let planned = false
  const error = (await runRows(app(d, files), input({ cap: 0.00001, onPlan: () => (planned = true) })).catch(
    (e: unknown) => e,
  )) as CostCapError
  t.ok(error instanceof CostCapError, 'a CostCapError')
  t.equal(error.judgment, 'lang')
  const plans = error.context.plans as JudgmentPlan[]
  t.same(
    plans.map((p) => [p.judgment, p.rows, p.states]),
    [
      ['lang', 5, 4],
      ['tone', 5, 4],
    ],
  )
  t.equal(engine.calls.length, 0, 'nothing was asked')
  t.notOk(planned, 'the plan callback waits for a plan within the cap')
  t.same(d.store.listRuns(['lang', 'tone'], 50), [])
})

t.test('without an engine key, rows that must be asked are refused before any is judged', async (t) => {
  const d = deps(null)
  await t.rejects(runRows(app(d, files), input()), MissingKeyError)
  t.same(d.store.listRuns(['lang', 'tone'], 50), [])
})

t.test('a run asks each distinct state once and records the named judgments and their dependencies', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  const seen: number[] = []
  let askedAtPlan = -1
  const runs = await runRows(
    app(d, files),
    input({ onPlan: () => (askedAtPlan = engine.calls.length), onRow: (seq) => seen.push(seq) }),
  )
  t.equal(askedAtPlan, 0, 'the plan comes before anything is asked')
  t.same(seen, [0, 1, 2, 3, 4])
  t.equal(engine.calls.length, 8, 'four distinct states, each asked once per judgment')
  t.same(
    runs.map((r) => r.judgment),
    ['lang', 'tone'],
    'other is not named and not a dependency',
  )
  for (const run of runs) {
    t.match(run, {
      rows: 5,
      states: 4,
      asked: 4,
      requests: 4,
      cached: 0,
      status: 'complete',
      command: 'run',
      source: 'messages.csv',
      reported_model: 'jev-test',
      git_sha: 'abc1234',
      model: 'jev-test',
      started_at: '2026-11-22T10:00:00.000',
      finished_at: '2026-11-22T10:00:00.000',
    })
    t.same(d.store.listRuns([run.judgment], 50), [run], `the ${run.judgment} run is in the store`)
    const counts = d.store.runLabelCounts(run.judgment)
    t.equal(
      counts.reduce((n, c) => n + c.count, 0),
      5,
      `${run.judgment}'s label mix counts every row`,
    )
  }
  t.equal(runs[0].spec_hash, lang.hash)
})

t.test('a run that fails midway is recorded as failed, with the answers received kept', async (t) => {
  const engine = createFakeEngine({
    fail: (_request, i) => (i >= 2 ? new Error('engine answered 500: overloaded') : undefined),
  })
  const d = deps(engine)
  const runs = await runRows(app(d, files), input({ specs: [other] }))
  t.match(runs, [
    { judgment: 'other', status: 'failed: engine answered 500: overloaded', rows: 2, asked: 2, requests: 2 },
  ])
  t.same(d.store.listRuns(['other'], 50), runs, 'the failed run is recorded')
  t.equal(d.store.countAnswers('jev-test', other.questions[0].fingerprint), 2, 'the two answers received stay stored')
  // The plan saw every state of the file; the run records only the two it judged, though its tally took over the plan's.
  t.equal(runs[0].states, 2)
  t.same(
    d.store.runStatesPage(runs[0].run_id, 0, 50).map((s) => s.rows),
    [1, 1],
  )
})

t.test('rows in hand are judged like rows of a file', async (t) => {
  const d = deps(createFakeEngine())
  const runs = await runRows(
    app(d),
    input({ specs: [other], source: { kind: 'rows', rows: [{ row: { message: 'a' }, where: 'row 1' }] } }),
  )
  t.match(runs, [{ judgment: 'other', rows: 1, asked: 1, status: 'complete' }])
})

t.test(
  'a rerun the store answers in full reads the file once and each distinct state once, and records the same',
  async (t) => {
    const d = deps(createFakeEngine())
    const first = await runRows(app(d, files), input())
    let reads = 0
    let lookups = 0
    const getAnswers = d.store.getAnswers.bind(d.store)
    d.store.getAnswers = (...args) => {
      lookups++
      return getAnswers(...args)
    }
    const counting = app(d, {
      ...files,
      rows: (...args) => {
        reads++
        return files.rows(...args)
      },
    })
    const done: number[] = []
    const again = await runRows(counting, input({ onPlan: () => (lookups = 0), onRows: (n) => done.push(n) }))
    t.equal(reads, 1, 'the plan read the rows; they were counted from it')
    t.equal(lookups, 8, 'after the plan, four distinct states of two judgments, each read once')
    t.same(done.at(-1), 5, 'the rows judged are told')
    for (const [i, run] of again.entries()) {
      t.match(run, { rows: 5, states: 4, asked: 0, cached: 4, status: 'complete' })
      t.same(
        d.store
          .runLabelCounts(run.judgment)
          .filter((c) => c.run_id === run.run_id)
          .map(({ run_id, ...c }) => c),
        d.store
          .runLabelCounts(run.judgment)
          .filter((c) => c.run_id === first[i].run_id)
          .map(({ run_id, ...c }) => c),
        `${run.judgment}'s label counts are the first run's`,
      )
      t.same(
        d.store.runStatesPage(run.run_id, 0, 50),
        d.store.runStatesPage(first[i].run_id, 0, 50),
        'and so are its states',
      )
    }

    reads = 0
    const seen: number[] = []
    await runRows(counting, input({ onRow: (seq) => seen.push(seq) }))
    t.equal(reads, 2, 'a caller that wants each row gets them judged one by one')
    t.same(seen, [0, 1, 2, 3, 4])
  },
)
