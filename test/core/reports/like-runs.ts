import t from 'tap'
import { isLike, likeDrift, newestFirst, previousLike } from '../../../src/core/reports/like-runs.ts'
import type { ModelCheck, RunRecord } from '../../../src/core/types.ts'
import type { RunLabelCount } from '../../../src/ports/run-store.ts'

interface Seed {
  readonly id: string
  readonly command?: string
  readonly source?: string
  readonly status?: string
  readonly model?: string
  readonly yes: number
  readonly no: number
  /** Every state's rows, the same for all; left out, the run was recorded without multiplicities. */
  readonly repeat?: number
}

/** The label counts of runs of is_spam, in the order given (oldest first). */
function counts(...runs: Seed[]): RunLabelCount[] {
  return runs.flatMap((r, i) =>
    (['yes', 'no'] as const).map((label) => ({
      run_id: r.id,
      question: 'is_spam',
      label,
      count: r[label],
      rows: r.yes + r.no,
      started_at: `2026-01-0${i + 1}`,
      status: r.status ?? 'complete',
      command: r.command ?? 'run',
      source: r.source ?? 'a.csv',
      reported_model: r.model ?? 'jev-1',
      states: r.repeat === undefined ? null : r[label] / r.repeat,
      squares: r.repeat === undefined ? null : r[label] * r.repeat,
    })),
  )
}

const pick = (entries: readonly object[], ...keys: string[]) =>
  entries.map((e) => Object.fromEntries(keys.map((k) => [k, (e as Record<string, unknown>)[k]])))

t.test(
  'each run is compared with the previous complete run of its command and source, not the previous run',
  async (t) => {
    const drift = likeDrift(
      counts(
        { id: 'm1', yes: 10, no: 90 },
        { id: 'l1', source: 'later.csv', yes: 40, no: 60 },
        { id: 'k1', command: 'test', source: 'answer key', yes: 50, no: 50 },
        { id: 'm2', yes: 10, no: 90 },
        { id: 'l2', source: 'later.csv', yes: 40, no: 60 },
      ),
      ['is_spam', 'topic'],
      [],
    )
    t.same(pick(drift.is_spam, 'run_id', 'baseline', 'change', 'alert'), [
      { run_id: 'm1', baseline: null, change: null, alert: false },
      { run_id: 'l1', baseline: null, change: null, alert: false },
      { run_id: 'k1', baseline: null, change: null, alert: false },
      { run_id: 'm2', baseline: 'm1', change: 0, alert: false },
      { run_id: 'l2', baseline: 'l1', change: 0, alert: false },
    ])
    t.same(drift.topic, [], 'every question named is present')
    t.match(drift.is_spam[3], {
      command: 'run',
      source: 'a.csv',
      status: 'complete',
      reported_model: 'jev-1',
      model_change: 0,
      data_change: 0,
      model_rows: null,
    })
  },
)

t.test('a failed run is shown with its change, never alerts and is never a baseline', async (t) => {
  const seeds = counts(
    { id: 'r1', yes: 10, no: 90 },
    { id: 'r2', status: 'failed: engine answered 500', yes: 9, no: 1 },
    { id: 'r3', yes: 30, no: 70 },
  )
  const drift = likeDrift(seeds, ['is_spam'], [])
  t.same(pick(drift.is_spam, 'run_id', 'status', 'baseline', 'change', 'alert'), [
    { run_id: 'r1', status: 'complete', baseline: null, change: null, alert: false },
    { run_id: 'r2', status: 'failed: engine answered 500', baseline: 'r1', change: 0.8, alert: false },
    { run_id: 'r3', status: 'complete', baseline: 'r1', change: 0.2, alert: true },
  ])
  t.same(
    likeDrift(seeds, ['is_spam'], [], { completed: true }).is_spam.map((e) => e.run_id),
    ['r1', 'r3'],
    'completed only leaves it out',
  )
})

t.test('filters keep the runs of one command or source, their baselines unchanged', async (t) => {
  const seeds = counts(
    { id: 'a1', yes: 1, no: 1 },
    { id: 'b1', source: 'b.csv', yes: 1, no: 1 },
    { id: 'a2', yes: 2, no: 0 },
    { id: 't1', command: 'test', source: 'answer key', yes: 1, no: 0 },
  )
  t.same(
    likeDrift(seeds, ['is_spam'], [], { source: 'a.csv' }).is_spam.map((e) => [e.run_id, e.baseline]),
    [
      ['a1', null],
      ['a2', 'a1'],
    ],
  )
  t.same(
    likeDrift(seeds, ['is_spam'], [], { command: 'run' }).is_spam.map((e) => e.run_id),
    ['a1', 'b1', 'a2'],
  )
  t.same(
    likeDrift(seeds, ['is_spam'], [], { command: 'test', source: 'answer key' }).is_spam.map((e) => e.run_id),
    ['t1'],
  )
  t.same(likeDrift(seeds, ['is_spam'], [], { source: 'nope' }).is_spam, [])
})

t.test("when the engine reported another model, the change is split by the run's model check", async (t) => {
  const seeds = counts(
    { id: 'r1', model: 'jev-1', yes: 20, no: 80 },
    { id: 'r2', model: 'jev-2', yes: 30, no: 70 },
    { id: 'r3', model: 'jev-3', yes: 30, no: 70 },
  )
  const check: ModelCheck = {
    run_id: 'r2',
    baseline: 'r1',
    old_model: 'jev-1',
    new_model: 'jev-2',
    rows_from: 'sample',
    states: 10,
    same_rows: false,
    stopped: '',
    asked: 0,
    cost: 0,
    pairs: [
      { question: 'is_spam', old_label: 'yes', new_label: 'yes', rows: 2 },
      { question: 'is_spam', old_label: 'no', new_label: 'yes', rows: 1 },
      { question: 'is_spam', old_label: 'no', new_label: 'no', rows: 7 },
    ],
  }
  const [, second, third] = likeDrift(seeds, ['is_spam'], [check]).is_spam
  t.equal(second.change, 0.1)
  t.equal(second.model_change, 0.1, "the two models' mixes on the same 10 rows: 20% and 30% yes")
  t.equal(second.model_rows, 10)
  t.equal(second.model_flips, 0.1)
  t.equal(second.model_p_value, 1, 'one row flipped of ten: a single discordant pair is as likely either way')
  t.equal(second.data_change, 0, "the baseline moved by the model's part is this run's mix")
  t.match(
    third,
    { baseline: 'r2', model_change: null, model_rows: null, data_change: null, model_p_value: null },
    'no check: the parts are unmeasured',
  )
  const same = likeDrift(seeds, ['is_spam'], [{ ...check, same_rows: true }]).is_spam[1]
  t.equal(same.data_change, 0, 'the same rows: no data part, by definition')
  const elsewhere = likeDrift(seeds, ['is_spam'], [{ ...check, baseline: 'r0' }]).is_spam[1]
  t.equal(elsewhere.model_change, null, 'a check against another baseline does not count')
})

t.test('the previous like run is the newest complete one of the same command and source before it', async (t) => {
  const run = (id: string, started: string, over: Partial<RunRecord> = {}) =>
    ({
      run_id: id,
      judgment: 'spam',
      started_at: started,
      status: 'complete',
      command: 'run',
      source: 'a.csv',
      ...over,
    }) as RunRecord
  const runs = [
    run('r1', '1'),
    run('r2', '2'),
    run('r3', '3', { status: 'failed: x' }),
    run('r4', '4', { source: 'b.csv' }),
    run('r5', '5'),
    run('x', '4', { judgment: 'ham' }),
  ]
  t.equal(previousLike(runs, runs[4])?.run_id, 'r2')
  t.equal(previousLike(runs, runs[0]), null)
  t.equal(previousLike(runs, runs[3]), null)
  t.equal(previousLike([...runs, run('r2b', '2')], runs[4])?.run_id, 'r2b', 'ties by run id')
  t.equal(
    previousLike([...runs, run('r4z', '5'), run('r6', '5')], runs[4])?.run_id,
    'r4z',
    'of two runs started at the same moment, the smaller id is before the other',
  )
  t.same(
    [run('b', '1'), run('a', '2'), run('c', '1')].sort(newestFirst).map((r) => r.run_id),
    ['a', 'c', 'b'],
    'newest start first, then the greater id',
  )
  t.equal(newestFirst(runs[0], runs[0]), 0)
  t.ok(isLike(runs[0], runs[1]))
  t.notOk(isLike(runs[0], runs[3]))
})

t.test(
  'like runs weigh repeated rows as drift does: every row ten times gives the p value of the rows once',
  async (t) => {
    const once = likeDrift(
      counts({ id: 'r1', yes: 1, no: 9, repeat: 1 }, { id: 'r2', yes: 4, no: 6, repeat: 1 }),
      ['is_spam'],
      [],
    ).is_spam[1]
    const tenfold = likeDrift(
      counts({ id: 'r1', yes: 10, no: 90, repeat: 10 }, { id: 'r2', yes: 40, no: 60, repeat: 10 }),
      ['is_spam'],
      [],
    ).is_spam[1]
    const legacy = likeDrift(counts({ id: 'r1', yes: 10, no: 90 }, { id: 'r2', yes: 40, no: 60 }), ['is_spam'], [])
      .is_spam[1]
    t.same([once.alert, once.significant], [true, false])
    t.equal(tenfold.p_value, once.p_value)
    t.same([tenfold.alert, tenfold.significant], [true, false])
    t.ok(legacy.significant, `recorded without multiplicities, the 100 rows count as 100: p ${legacy.p_value}`)
  },
)

t.test("the model part's p value is given at full precision", async (t) => {
  const seeds = counts({ id: 'r1', model: 'jev-1', yes: 0, no: 100 }, { id: 'r2', model: 'jev-2', yes: 30, no: 70 })
  const check: ModelCheck = {
    run_id: 'r2',
    baseline: 'r1',
    old_model: 'jev-1',
    new_model: 'jev-2',
    rows_from: 'sample',
    states: 100,
    same_rows: true,
    stopped: '',
    asked: 0,
    cost: 0,
    pairs: [
      { question: 'is_spam', old_label: 'no', new_label: 'yes', rows: 30 },
      { question: 'is_spam', old_label: 'no', new_label: 'no', rows: 70 },
    ],
  }
  t.equal(
    likeDrift(seeds, ['is_spam'], [check]).is_spam[1].model_p_value,
    1 / 2001,
    'no draw of 2,000 moves 30 rows all one way',
  )
})

t.test(
  'each run is compared on other data with the newest complete run of its command on another source',
  async (t) => {
    const drift = likeDrift(
      counts(
        { id: 'm1', yes: 10, no: 90 },
        { id: 'l1', source: 'later.csv', yes: 40, no: 60 },
        { id: 'k1', command: 'test', source: 'answer key', yes: 50, no: 50 },
        { id: 'x1', source: 'failed.csv', status: 'failed: interrupted', yes: 90, no: 10 },
        { id: 'm2', yes: 10, no: 90 },
        { id: 'l2', source: 'later.csv', yes: 40, no: 60 },
        { id: 'k2', command: 'test', source: 'answer key', yes: 50, no: 50 },
      ),
      ['is_spam'],
      [],
      { command: 'run' },
    )
    const others = drift.is_spam.map((e) => [
      e.run_id,
      e.other_data && pick([e.other_data], 'baseline', 'source', 'change', 'alert')[0],
    ])
    t.same(others, [
      ['m1', null],
      ['l1', { baseline: 'm1', source: 'a.csv', change: 0.3, alert: true }],
      // A failed run is compared, never alerts, and is never anyone's baseline.
      ['x1', { baseline: 'l1', source: 'later.csv', change: 0.5, alert: false }],
      ['m2', { baseline: 'l1', source: 'later.csv', change: 0.3, alert: true }],
      ['l2', { baseline: 'm2', source: 'a.csv', change: 0.3, alert: true }],
    ])
    t.equal(drift.is_spam[1].other_data?.significant, true)
    const key = likeDrift(
      counts({ id: 'm1', yes: 1, no: 9 }, { id: 'k1', command: 'test', source: 'answer key', yes: 5, no: 5 }),
      ['is_spam'],
      [],
    )
    t.equal(key.is_spam[1].other_data, null, "another command's rows are not other data")
  },
)
