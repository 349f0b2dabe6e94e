import t from 'tap'
import { driftOf, listRuns, RUNS_LIMIT } from '../../src/app/runs.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { UsageError } from '../../src/errors.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec()
const PROVENANCE = { command: 'run', source: 'data.csv', source_hash: '', node: 'spam', reported_model: 'm', states: 10, fingerprints: {} }
const other = parseSpec('state: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/specs/other.judge.yaml')

function run(n: number, judgment = 'spam') {
  const id = `r${String(n).padStart(3, '0')}`
  return { run_id: id, judgment, spec_hash: 'h', git_sha: '', model: 'm', rows: 10, asked: 0, cost: 0, status: 'complete', started_at: `2026-11-22T00:00:${String(n % 60).padStart(2, '0')}.${String(n).padStart(3, '0')}`, finished_at: 'x', cached: 0, requests: 0, ...PROVENANCE }
}

t.test('runs are the selected judgments\', newest first, at most 50', async (t) => {
  const store = createMemoryStore()
  for (let n = 1; n <= 55; n++) store.recordRun(run(n), [])
  store.recordRun(run(99, 'other'), [])
  const runs = listRuns(app(deps(null, store)), project(spam), null)
  t.equal(runs.length, RUNS_LIMIT)
  t.equal(runs[0].run_id, 'r055')
  t.ok(runs.every((r) => r.judgment === 'spam'))
})

t.test('a node lists that judgment\'s runs even when another has 50 newer ones', async (t) => {
  const store = createMemoryStore()
  store.recordRun(run(1, 'other'), [])
  for (let n = 2; n <= 56; n++) store.recordRun(run(n), [])
  const a = app(deps(null, store))
  t.same(listRuns(a, project(spam, other), 'other').map((r) => r.run_id), ['r001'])
  t.equal(listRuns(a, project(spam, other), null).length, RUNS_LIMIT)
  t.throws(() => listRuns(a, project(spam, other), 'nope'), new UsageError('unknown node "nope"; the judgments here are: spam, other'))
})

t.test('no store: no runs, and every question with no drift', async (t) => {
  const a = { ...app(deps(null)), existingStore: () => null }
  t.same(listRuns(a, project(spam), null), [])
  t.same(driftOf(a, project(spam), null), { is_spam: [], topic: [], urgency: [] })
})

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
