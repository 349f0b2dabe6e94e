import t from 'tap'
import { driftByQuestion, shares, totalVariation } from '../../../src/core/reports/drift.ts'
import type { RunLabelCount } from '../../../src/ports/run-store.ts'

const c = (run_id: string, question: string, label: string, count: number, rows: number): RunLabelCount => ({ run_id, question, label, count, rows, started_at: run_id, status: 'complete', command: 'run', source: 'd.csv', reported_model: 'm' })

t.test('shares divide counts by their total and sum to 1', async (t) => {
  t.same(shares({ yes: 1, no: 3 }), { yes: 0.25, no: 0.75 })
  t.same(shares({}), {})
})

t.test('total variation distance is 0 for the same mix and 1 for no overlap', async (t) => {
  t.equal(totalVariation({ yes: 0.5, no: 0.5 }, { no: 0.5, yes: 0.5 }), 0)
  t.equal(totalVariation({ yes: 1 }, { no: 1 }), 1)
  t.equal(totalVariation({ a: 0.5, b: 0.5 }, { a: 0.2, b: 0.5, c: 0.3 }), 0.3)
})

t.test('drift lists runs oldest first with the change since the previous run', async (t) => {
  const drift = driftByQuestion([
    c('r1', 'is_spam', 'yes', 10, 100), c('r1', 'is_spam', 'no', 90, 100),
    c('r2', 'is_spam', 'yes', 25, 100), c('r2', 'is_spam', 'no', 75, 100),
    c('r3', 'is_spam', 'yes', 30, 100), c('r3', 'is_spam', 'no', 70, 100),
  ])
  t.same(drift.is_spam, [
    { run_id: 'r1', rows: 100, shares: { yes: 0.1, no: 0.9 }, change: null, alert: false, p_value: null, significant: false },
    { run_id: 'r2', rows: 100, shares: { yes: 0.25, no: 0.75 }, change: 0.15, alert: true, p_value: 0.005247204, significant: true },
    { run_id: 'r3', rows: 100, shares: { yes: 0.3, no: 0.7 }, change: 0.05, alert: false, p_value: 0.42847288, significant: false },
  ])
})

t.test('a change of exactly 0.10 is not an alert; above it is', async (t) => {
  const drift = driftByQuestion([c('r1', 'q', 'a', 50, 100), c('r1', 'q', 'b', 50, 100), c('r2', 'q', 'a', 60, 100), c('r2', 'q', 'b', 40, 100)])
  t.equal(drift.q[1].change, 0.1)
  t.equal(drift.q[1].alert, false)
})

t.test('named questions are always present and others are left out', async (t) => {
  const drift = driftByQuestion([c('r1', 'gone', 'a', 1, 1)], ['is_spam'])
  t.same(drift, { is_spam: [] })
})
