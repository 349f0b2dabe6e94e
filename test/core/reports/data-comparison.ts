import t from 'tap'
import { compareWith, sourceHistory, withComparisons } from '../../../src/core/reports/data-comparison.ts'
import type { DriftEntry } from '../../../src/core/types.ts'

const base = (run_id: string, source: string, yes: number) => ({
  run_id,
  source,
  shares: { yes: yes / 10, no: 1 - yes / 10 },
  counts: { yes, no: 10 - yes },
  squares: null,
})
const mix = (yes: number) => ({
  shares: { yes: yes / 10, no: 1 - yes / 10 },
  counts: { yes, no: 10 - yes },
  squares: null,
})

t.test('a run against a baseline: its change, alerting only for a complete run', async (t) => {
  t.equal(compareWith(null, mix(5), true), null)
  t.match(compareWith(base('r1', 'a.csv', 1), mix(5), true), {
    baseline: 'r1',
    source: 'a.csv',
    change: 0.4,
    alert: true,
    significant: false,
  })
  t.match(compareWith(base('r1', 'a.csv', 1), mix(5), false), { change: 0.4, alert: false, significant: false })
  t.match(
    compareWith(base('r1', 'a.csv', 4), mix(5), true),
    { change: 0.1, alert: false },
    'exactly 0.10 is not an alert',
  )
})

t.test('the previous run on other data is the newest of its command whose source is another', async (t) => {
  const history = sourceHistory()
  t.equal(history.otherThan('run', 'a.csv'), null)
  history.record('run', base('a1', 'a.csv', 1))
  t.equal(history.otherThan('run', 'a.csv'), null, 'only the same source so far')
  history.record('run', base('b1', 'b.csv', 2))
  history.record('test', base('k1', 'answer key', 3))
  t.equal(history.otherThan('run', 'a.csv')?.run_id, 'b1')
  t.equal(history.otherThan('run', 'b.csv')?.run_id, 'a1')
  t.equal(history.otherThan('run', 'c.csv')?.run_id, 'b1', 'the newest other source')
  history.record('run', base('a2', 'a.csv', 1))
  t.equal(history.otherThan('run', 'c.csv')?.run_id, 'a2', 'a source run again is its newest')
  t.equal(history.otherThan('test', 'answer key'), null, "another command's runs are not other data")
})

t.test("the interface's entries gain the runs' comparisons, their own fields unchanged", async (t) => {
  const entry = (run_id: string, change: number | null): DriftEntry => ({
    run_id,
    rows: 10,
    shares: { yes: 0.5, no: 0.5 },
    change,
    alert: false,
    p_value: null,
    significant: false,
  })
  const other = { baseline: 'r1', source: 'a.csv', change: 0.3, alert: true, p_value: 0.001, significant: true }
  const like = (run_id: string, baseline: string | null, change: number | null, other_data: typeof other | null) => ({
    run_id,
    source: 'b.csv',
    baseline,
    change,
    alert: false,
    p_value: change === null ? null : 0.9,
    significant: false,
    other_data,
  })
  const out = withComparisons(
    { q: [entry('r1', null), entry('r2', 0.3), entry('r3', 0.3), entry('r4', 0)], none: [] },
    { q: [like('r2', null, null, other), like('r3', 'r2', 0, other), like('r4', 'r3', null, null)] },
  )
  t.same(out.none, [])
  t.same(out.q[0], { ...entry('r1', null), same_data: null, other_data: null }, 'no like-run entry: none')
  t.same(out.q[1], { ...entry('r2', 0.3), same_data: null, other_data: other })
  t.same(out.q[2].same_data, {
    baseline: 'r2',
    source: 'b.csv',
    change: 0,
    alert: false,
    p_value: 0.9,
    significant: false,
  })
  t.same(out.q[3], { ...entry('r4', 0), same_data: null, other_data: null }, 'a baseline without a change: none')
})
