import t from 'tap'
import {
  driftOf,
  likeDriftOf,
  listRuns,
  PROVENANCE_FIELDS,
  publicRun,
  RUN_FIELDS,
  RUNS_LIMIT,
  runById,
  runHistoryOf,
} from '../../src/app/runs.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { UsageError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec()
const PROVENANCE = {
  command: 'run',
  source: 'data.csv',
  source_hash: '',
  node: 'spam',
  reported_model: 'm',
  states: 10,
  fingerprints: {},
}
const other = parseSpec('state: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/specs/other.judge.yaml')

function run(n: number, judgment = 'spam') {
  const id = `r${String(n).padStart(3, '0')}`
  return {
    run_id: id,
    judgment,
    spec_hash: 'h',
    git_sha: '',
    model: 'm',
    rows: 10,
    asked: 0,
    cost: 0,
    status: 'complete',
    started_at: `2026-11-22T00:00:${String(n % 60).padStart(2, '0')}.${String(n).padStart(3, '0')}`,
    finished_at: 'x',
    cached: 0,
    requests: 0,
    ...PROVENANCE,
  }
}

t.test("runs are the selected judgments', newest first, at most 50", async (t) => {
  const store = createMemoryStore()
  for (let n = 1; n <= 55; n++) store.recordRun(run(n), [])
  store.recordRun(run(99, 'other'), [])
  const runs = listRuns(app(deps(null, store)), project(spam), null)
  t.equal(runs.length, RUNS_LIMIT)
  t.equal(runs[0].run_id, 'r055')
  t.ok(runs.every((r) => r.judgment === 'spam'))
})

t.test("a node lists that judgment's runs even when another has 50 newer ones", async (t) => {
  const store = createMemoryStore()
  store.recordRun(run(1, 'other'), [])
  for (let n = 2; n <= 56; n++) store.recordRun(run(n), [])
  const a = app(deps(null, store))
  t.same(
    listRuns(a, project(spam, other), 'other').map((r) => r.run_id),
    ['r001'],
  )
  t.equal(listRuns(a, project(spam, other), null).length, RUNS_LIMIT)
  t.throws(
    () => listRuns(a, project(spam, other), 'nope'),
    new UsageError('unknown node "nope"; the judgments here are: spam, other'),
  )
})

t.test('no store: no runs, and every question with no drift', async (t) => {
  const a = { ...app(deps(null)), existingStore: () => null }
  t.same(listRuns(a, project(spam), null), [])
  t.same(driftOf(a, project(spam), null), { is_spam: [], topic: [], urgency: [] })
})

t.test(
  'a run is found by its id; an unknown id or a folder without a store finds none, creating nothing',
  async (t) => {
    const store = createMemoryStore()
    store.recordRun(run(7), [])
    t.equal(runById(app(deps(null, store)), project(spam), 'r007')?.started_at, run(7).started_at)
    t.equal(runById(app(deps(null, store)), project(spam), 'r008'), null)
    let opened = false
    const bare = {
      ...app(deps(null)),
      existingStore: () => null,
      depsFor: () => {
        opened = true
        throw new Error('no store may be opened')
      },
    }
    t.equal(runById(bare, project(spam), 'r007'), null)
    t.notOk(opened)
  },
)

t.test('drift covers every question of the one judgment; a folder of several needs node', async (t) => {
  const store = createMemoryStore()
  store.recordRun(run(1), [{ run_id: 'r001', question: 'is_spam', label: 'yes', count: 10 }])
  const a = app(deps(null, store))
  const drift = driftOf(a, project(spam), null)
  t.same(Object.keys(drift), ['is_spam', 'topic', 'urgency'])
  t.match(drift.is_spam, [{ run_id: 'r001', rows: 10, shares: { yes: 1 }, change: null, alert: false }])
  t.same(Object.keys(driftOf(a, project(spam, other), 'other')), ['q'])
  t.throws(() => driftOf(a, project(spam, other), null), /holds 2 judgments \(spam, other\); name one with node/)
})

t.test("a listed run keeps the interface's fields in the seed's order, then what it ran on", async (t) => {
  const listed = publicRun({ ...run(1), cached: 3, requests: 2 })
  t.same(Object.keys(listed), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
  t.equal(
    JSON.stringify(listed),
    JSON.stringify({
      run_id: 'r001',
      judgment: 'spam',
      spec_hash: 'h',
      git_sha: '',
      model: 'm',
      rows: 10,
      asked: 0,
      cost: 0,
      status: 'complete',
      started_at: run(1).started_at,
      finished_at: 'x',
      command: 'run',
      source: 'data.csv',
      source_hash: '',
      node: 'spam',
      reported_model: 'm',
      states: 10,
    }),
  )
})

/** A store with three runs of spam: r1 and r3 over data.csv (1 yes in 10 each), r2 over later.csv (5 in 10). */
function likeRunsStore() {
  const store = createMemoryStore()
  const count = (run_id: string, yes: number) => [
    { run_id, question: 'is_spam', label: 'yes', count: yes },
    { run_id, question: 'is_spam', label: 'no', count: 10 - yes },
  ]
  store.recordRun({ ...run(1), run_id: 'r1' }, count('r1', 1))
  store.recordRun({ ...run(2), run_id: 'r2', source: 'later.csv' }, count('r2', 5))
  store.recordRun({ ...run(3), run_id: 'r3' }, count('r3', 1))
  return store
}

t.test(
  'like-runs drift of the one judgment: each run against the previous complete run of its command and source',
  async (t) => {
    const store = likeRunsStore()
    const a = app(deps(null, store))
    t.same(
      likeDriftOf(a, project(spam), null, {}).is_spam.map((e) => [e.run_id, e.baseline, e.change]),
      [
        ['r1', null, null],
        ['r2', null, null],
        ['r3', 'r1', 0],
      ],
    )
    t.same(
      likeDriftOf(a, project(spam), null, { source: 'later.csv' }).is_spam.map((e) => e.run_id),
      ['r2'],
    )
    t.same(likeDriftOf({ ...a, existingStore: () => null }, project(spam), null, {}), {
      is_spam: [],
      topic: [],
      urgency: [],
    })
  },
)

t.test("a run history gives both drifts and each run's start from one read of the label counts", async (t) => {
  const store = likeRunsStore()
  let reads = 0
  const counting = { ...store, runLabelCounts: (judgment: string) => (reads++, store.runLabelCounts(judgment)) }
  const a = app(deps(null, counting))
  const history = runHistoryOf(a, project(spam), spam)
  t.equal(reads, 1, 'the label counts are read once')
  t.same(history.drift, driftOf(a, project(spam), null))
  t.same(history.like, likeDriftOf(a, project(spam), null, {}))
  t.same(history.started, { r1: run(1).started_at, r2: run(2).started_at, r3: run(3).started_at })
  t.same(runHistoryOf({ ...a, existingStore: () => null }, project(spam), spam), {
    drift: { is_spam: [], topic: [], urgency: [] },
    like: { is_spam: [], topic: [], urgency: [] },
    started: {},
  })
})

t.test('listings record the abandoned runs first, and show no run still going', async (t) => {
  const store = createMemoryStore()
  const open = (id: string, pid: number, heartbeat: string) => ({
    run: { ...run(1), run_id: id, status: 'running', asked: 5, cost: 0.002 },
    counts: [{ run_id: id, question: 'is_spam', label: 'yes', count: 10 }],
    pid,
    host: 'another-machine',
    heartbeat_at: heartbeat,
  })
  store.putOpenRun(open('r-killed', 4242, '2026-11-22T09:00:00.000'))
  store.putOpenRun(open('r-going', 4343, '2026-11-22T09:59:50.000'))
  const a = app(deps(null, store))
  const runs = listRuns(a, project(spam), null)
  t.same(
    runs.map((r) => [r.run_id, r.status, r.asked, r.cost, r.finished_at]),
    [['r-killed', 'failed: interrupted', 5, 0.002, '2026-11-22T09:00:00.000']],
  )
  t.same(
    store.openRuns().map((o) => o.run.run_id),
    ['r-going'],
    'a run written a moment ago is still going',
  )
  t.same(
    driftOf(a, project(spam), null).is_spam.map((e) => e.run_id),
    ['r-killed'],
    'and its label mix is in drift',
  )
})
