import t from 'tap'
import { driftByQuestion, shares, totalVariation } from '../../../src/core/reports/drift.ts'
import type { RunLabelCount } from '../../../src/ports/run-store.ts'

const c = (run_id: string, question: string, label: string, count: number, rows: number): RunLabelCount => ({
  run_id,
  question,
  label,
  count,
  rows,
  started_at: run_id,
  status: 'complete',
  command: 'run',
  source: 'd.csv',
  reported_model: 'm',
  states: null,
  squares: null,
})

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
    c('r1', 'is_spam', 'yes', 10, 100),
    c('r1', 'is_spam', 'no', 90, 100),
    c('r2', 'is_spam', 'yes', 25, 100),
    c('r2', 'is_spam', 'no', 75, 100),
    c('r3', 'is_spam', 'yes', 30, 100),
    c('r3', 'is_spam', 'no', 70, 100),
  ])
  t.same(drift.is_spam, [
    {
      run_id: 'r1',
      rows: 100,
      shares: { yes: 0.1, no: 0.9 },
      change: null,
      alert: false,
      p_value: null,
      significant: false,
    },
    {
      run_id: 'r2',
      rows: 100,
      shares: { yes: 0.25, no: 0.75 },
      change: 0.15,
      alert: true,
      p_value: 0.0052472037391156435,
      significant: true,
    },
    {
      run_id: 'r3',
      rows: 100,
      shares: { yes: 0.3, no: 0.7 },
      change: 0.05,
      alert: false,
      p_value: 0.42847288044281684,
      significant: false,
    },
  ])
})

t.test('a change of exactly 0.10 is not an alert; above it is', async (t) => {
  const drift = driftByQuestion([
    c('r1', 'q', 'a', 50, 100),
    c('r1', 'q', 'b', 50, 100),
    c('r2', 'q', 'a', 60, 100),
    c('r2', 'q', 'b', 40, 100),
  ])
  t.equal(drift.q[1].change, 0.1)
  t.equal(drift.q[1].alert, false)
})

t.test('named questions are always present and others are left out', async (t) => {
  const drift = driftByQuestion([c('r1', 'gone', 'a', 1, 1)], ['is_spam'])
  t.same(drift, { is_spam: [] })
})

/** Label counts of a run whose every state has `m` rows: `spam` of `rows` rows are spam. */
const repeated = (run_id: string, spam: number, rows: number, m: number): RunLabelCount[] => [
  { ...c(run_id, 'is_spam', 'yes', spam * m, rows * m), states: spam, squares: spam * m * m },
  { ...c(run_id, 'is_spam', 'no', (rows - spam) * m, rows * m), states: rows - spam, squares: (rows - spam) * m * m },
]

t.test(
  'two 10-row files (1 spam, then 4) are within noise, and the same files with every row repeated ten times get the same p value',
  async (t) => {
    const once = driftByQuestion([...repeated('r1', 1, 10, 1), ...repeated('r2', 4, 10, 1)]).is_spam[1]
    const tenfold = driftByQuestion([...repeated('r1', 1, 10, 10), ...repeated('r2', 4, 10, 10)]).is_spam[1]
    t.ok(Math.abs(once.p_value! - 0.31) < 0.02, `p ${once.p_value}, as Fisher's exact test's 0.30`)
    t.same([once.alert, once.significant], [true, false])
    t.equal(tenfold.p_value, once.p_value, 'the same twenty answers, the same p value')
    t.same(
      [tenfold.alert, tenfold.significant, tenfold.change, tenfold.rows],
      [true, false, 0.3, 100],
      'shares, change and alert stay row shares',
    )
  },
)

t.test('large files repeated ten times keep their p value too, where the chi-square test reads them', async (t) => {
  const once = driftByQuestion([...repeated('r1', 20, 200, 1), ...repeated('r2', 50, 200, 1)]).is_spam[1]
  const tenfold = driftByQuestion([...repeated('r1', 20, 200, 10), ...repeated('r2', 50, 200, 10)]).is_spam[1]
  t.ok(once.p_value! < 0.001 && once.significant, `p ${once.p_value}: a real change stays significant`)
  t.ok(Math.abs(tenfold.p_value! - once.p_value!) <= 1e-12 * once.p_value!, `${tenfold.p_value} is ${once.p_value}`)
  t.equal(tenfold.significant, true)
})

t.test('runs recorded without multiplicities count every row as evidence, as before', async (t) => {
  const legacy = (run_id: string, spam: number) =>
    repeated(run_id, spam, 100, 1).map((x) => ({ ...x, states: null, squares: null }))
  const entry = driftByQuestion([...legacy('r1', 10), ...legacy('r2', 40)]).is_spam[1]
  t.ok(entry.p_value! < 1e-5 && entry.significant, `p ${entry.p_value}`)
  const mixed = driftByQuestion([
    ...legacy('r1', 10),
    ...repeated('r2', 4, 10, 10).slice(0, 1),
    { ...repeated('r2', 4, 10, 10)[1], squares: null },
  ]).is_spam[1]
  t.equal(mixed.p_value, entry.p_value, 'a run with one label count unknown is read as unknown')
})

t.test('a p value far below 1e-9 is given at full precision, not rounded to 0', async (t) => {
  const entry = driftByQuestion([...repeated('r1', 100, 1000, 1), ...repeated('r2', 300, 1000, 1)]).is_spam[1]
  t.ok(entry.p_value! > 0 && entry.p_value! < 1e-9, `p ${entry.p_value}`)
  t.not(entry.p_value, Math.round(entry.p_value! * 1e9) / 1e9)
})
