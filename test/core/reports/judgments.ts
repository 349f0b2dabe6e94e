import t from 'tap'
import { driftReport, runsReport, singleJudgment, RUNS_LIMIT } from '../../../src/core/reports/judgments.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'
import { project, spec } from '../../helpers/specs.ts'

const spam = spec()
const other = parseSpec('state: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n', '/specs/other.judge.yaml')

function run(n: number, judgment = 'spam') {
  const id = `r${String(n).padStart(3, '0')}`
  return { run_id: id, judgment, spec_hash: 'h', git_sha: '', model: 'm', rows: 10, asked: 0, cost: 0, status: 'complete', started_at: `2026-11-22T00:00:${String(n % 60).padStart(2, '0')}.${String(n).padStart(3, '0')}`, finished_at: 'x', cached: 0, requests: 0 }
}

t.test('runs are the selected judgments\', newest first, at most 50', async (t) => {
  const store = createMemoryStore()
  for (let n = 1; n <= 55; n++) store.recordRun(run(n), [])
  store.recordRun(run(99, 'other'), [])
  const runs = runsReport(store, project(spam))
  t.equal(runs.length, RUNS_LIMIT)
  t.equal(runs[0].run_id, 'r055')
  t.ok(runs.every((r) => r.judgment === 'spam'))
})

t.test('drift covers every question of the judgment', async (t) => {
  const store = createMemoryStore()
  store.recordRun(run(1), [{ run_id: 'r001', question: 'is_spam', label: 'yes', count: 10 }])
  const drift = driftReport(store, spam)
  t.same(Object.keys(drift), ['is_spam', 'topic', 'urgency'])
  t.match(drift.is_spam, [{ run_id: 'r001', rows: 10, shares: { yes: 1 }, change: null, alert: false }])
})

t.test('a single judgment is the node or the only one; a folder of several needs node', async (t) => {
  t.equal(singleJudgment(project(spam), undefined).name, 'spam')
  t.equal(singleJudgment(project(spam, other), 'other').name, 'other')
  t.throws(() => singleJudgment(project(spam, other), undefined), /holds 2 judgments \(spam, other\); name one with node/)
  t.throws(() => singleJudgment(project(spam), 'nope'), /unknown node "nope"/)
})
