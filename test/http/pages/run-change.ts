import t from 'tap'
import type { LikeDriftEntry } from '../../../src/core/reports/like-runs.ts'
import type { DriftEntry } from '../../../src/core/types.ts'
import { runChange, unlikeRuns } from '../../../src/http/pages/run-change.ts'

const entry = (run_id: string, change: number | null, more: Partial<DriftEntry> = {}): DriftEntry => ({
  run_id,
  rows: 10,
  shares: { yes: 0.5, no: 0.5 },
  change,
  alert: change !== null && change > 0.1,
  p_value: change === null ? null : 0.0001,
  significant: true,
  ...more,
})
const like = (
  run_id: string,
  command: string,
  source: string,
  baseline: string | null,
  change: number | null,
  more: Partial<LikeDriftEntry> = {},
): LikeDriftEntry => ({
  ...entry(run_id, change),
  command,
  source,
  status: 'complete',
  reported_model: 'm',
  baseline,
  model_change: 0,
  model_rows: null,
  model_flips: null,
  data_change: change,
  model_p_value: null,
  other_data: null,
  ...more,
})

t.test(
  'a card leads with the change since the previous like run, and names a change from an unlike run as such',
  async (t) => {
    // r1 run of messages.csv, r2 test of the answer key, r3 test of the answer key again.
    const drift = [entry('r1', null), entry('r2', 0.4), entry('r3', 0.2)]
    const likes = [
      like('r1', 'run', 'messages.csv', null, null),
      like('r2', 'test', 'answer key', null, null),
      like('r3', 'test', 'answer key', 'r2', 0.02),
    ]
    t.equal(
      runChange(drift, likes).text,
      '<span class="muted">same data: change 0.020 since run <code>r2</code>, the previous complete <code>test</code> of <code>answer key</code></span>',
      'the run before is like: no word of unlike rows',
    )
    t.equal(
      runChange(drift.slice(0, 2), likes).text,
      '<span class="muted">same data: first complete <code>test</code> of <code>answer key</code>, nothing to compare with</span> ' +
        '<span class="muted unlike">· change 0.400 from the run before it, <code>run</code> of <code>messages.csv</code>: unlike rows, not drift</span>',
      "the README's red alarm, named for what it is",
    )
  },
)

t.test('drift between like runs is flagged above 0.10 unless it is noise', async (t) => {
  const drift = [entry('r1', null), entry('r2', 0.3)]
  const red = runChange(drift, [like('r1', 'run', 'a.csv', null, null), like('r2', 'run', 'a.csv', 'r1', 0.3)]).text
  t.match(
    red,
    /^<span class="alert">drift: same data: change 0\.300 since run <code>r1<\/code>, the previous complete <code>run<\/code> of <code>a\.csv<\/code>, above 0\.10 \(p &lt; 0\.001\)<\/span>$/,
  )
  const noise = runChange(drift, [
    like('r1', 'run', 'a.csv', null, null),
    like('r2', 'run', 'a.csv', 'r1', 0.3, { significant: false, p_value: 0.4 }),
  ]).text
  t.match(
    noise,
    /^<span class="muted">same data: change 0\.300 since run <code>r1<\/code>[^]*, above 0\.10 but within noise \(p = 0\.400\)<\/span>$/,
  )
  const old = runChange(drift, [like('r1', '', '', null, null), like('r2', '', '', 'r1', 0.3)]).text
  t.match(old, /the previous complete run recorded before commands and sources were/)
})

t.test('a run after another source of its command leads with its change on other data: the data moved', async (t) => {
  // r1 run of messages.csv, r2 run of later.csv, r3 run of later.csv again.
  const other = { baseline: 'r1', source: 'messages.csv', change: 0.2, alert: true, p_value: 0.0001, significant: true }
  const drift = [entry('r1', null), entry('r2', 0.2)]
  const likes = [
    like('r1', 'run', 'messages.csv', null, null),
    like('r2', 'run', 'later.csv', null, null, { other_data: other }),
  ]
  t.equal(
    runChange(drift, likes).text,
    '<span class="muted">same data: first complete <code>run</code> of <code>later.csv</code>, nothing to compare with</span> ' +
      '<span class="alert other-data">· drift: other data: change 0.200 since run <code>r1</code>, the previous complete ' +
      '<code>run</code> of <code>messages.csv</code>; the data moved, above 0.10 (p &lt; 0.001)</span>',
    'new data is drift, in red, and no word of unlike rows',
  )
  t.same([...unlikeRuns(drift, likes)], [], 'the chart flags it as drift')
  const noise = runChange(drift, [
    likes[0],
    like('r2', 'run', 'later.csv', null, null, {
      other_data: { ...other, significant: false, p_value: 0.3 },
    }),
  ]).text
  t.match(
    noise,
    /<span class="muted other-data">· other data: change 0\.200 [^]*the data moved, above 0\.10 but within noise \(p = 0\.300\)<\/span>$/,
  )
  const small = runChange(drift, [
    likes[0],
    like('r2', 'run', 'later.csv', null, null, {
      other_data: { ...other, change: 0.05, alert: false, significant: false },
    }),
  ]).text
  t.match(small, /<span class="muted other-data">· other data: change 0\.050 [^]*; the data moved<\/span>$/)
})

t.test('without like-run data the change since the previous run is shown as the drift entry says', async (t) => {
  t.equal(runChange([], []).text, '')
  t.equal(runChange([entry('r1', null)], []).text, '<span class="muted">first run</span>')
  t.match(
    runChange([entry('r1', null), entry('r2', 0.3)], []).text,
    /^<span class="alert">drift: change 0\.300 since the previous run, above 0\.10 \(p &lt; 0\.001\)<\/span>$/,
  )
  t.match(
    runChange([entry('r1', null), entry('r2', 0.3, { significant: false, p_value: 0.5 })], []).text,
    /within noise \(p = 0\.500\)/,
  )
  t.equal(
    runChange([entry('r1', null), entry('r2', 0.05)], []).text,
    '<span class="muted">change 0.050 since the previous run</span>',
  )
})

t.test('the runs whose change since the run before is between unlike runs are named', async (t) => {
  const drift = [entry('r1', null), entry('r2', 0.4), entry('r3', 0.2), entry('r4', 0.1)]
  const likes = [
    like('r1', 'run', 'a.csv', null, null),
    like('r2', 'test', 'answer key', null, null),
    like('r3', 'test', 'answer key', 'r2', 0.02),
  ]
  t.same([...unlikeRuns(drift, likes)], ['r2'], 'r3 follows a like run; r4 has no like-run data')
})
