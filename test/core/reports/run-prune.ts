import t from 'tap'
import { runsToPrune } from '../../../src/core/reports/run-prune.ts'
import type { RunRecord } from '../../../src/core/types.ts'

let n = 0
function run(over: Partial<RunRecord>): RunRecord {
  n++
  return {
    run_id: `r${String(n).padStart(2, '0')}`,
    judgment: 'spam',
    spec_hash: 's',
    git_sha: '',
    model: 'm',
    rows: 1,
    asked: 0,
    cost: 0,
    status: 'complete',
    started_at: `2026-01-01T00:00:${String(n).padStart(2, '0')}.000`,
    finished_at: '',
    cached: 0,
    requests: 0,
    command: 'run',
    source: 'a.csv',
    source_hash: '',
    node: 'spam',
    reported_model: 'm',
    states: 1,
    fingerprints: {},
    ...over,
  }
}

const ids = (runs: readonly RunRecord[]) => runs.map((r) => r.run_id)

t.test('each like series keeps its newest runs; older ones lose their row lists, newest first', async (t) => {
  n = 0
  const a = [run({}), run({}), run({}), run({})]
  const b = [run({ source: 'b.csv' }), run({ source: 'b.csv' })]
  const key = [run({ command: 'test', source: 'answer key' }), run({ command: 'test', source: 'answer key' })]
  const other = [run({ judgment: 'topic' }), run({ judgment: 'topic' })]
  const all = [...a, ...b, ...key, ...other]
  t.same(ids(runsToPrune(all, 2)), ids([a[1], a[0]]))
  t.same(ids(runsToPrune(all, 1)), ids([other[0], key[0], b[0], a[2], a[1], a[0]]))
  t.same(runsToPrune(all, 4), [])
  t.same(ids(runsToPrune([...all].reverse(), 2)), ids([a[1], a[0]]), 'whatever the order given')
})

t.test('the newest complete run of a series keeps its rows, however many failed runs came after it', async (t) => {
  n = 0
  const old = run({})
  const baseline = run({})
  const failed = [
    run({ status: 'failed: interrupted' }),
    run({ status: 'failed: engine' }),
    run({ status: 'failed: interrupted' }),
  ]
  t.same(
    ids(runsToPrune([old, baseline, ...failed], 2)),
    ids([failed[0], old]),
    'kept: the two newest failed runs and the baseline',
  )
  t.same(ids(runsToPrune([old, baseline, ...failed], 1)), ids([failed[1], failed[0], old]))
  const onlyFailed = [run({ source: 'x', status: 'failed: engine' }), run({ source: 'x', status: 'failed: engine' })]
  t.same(ids(runsToPrune(onlyFailed, 1)), ids([onlyFailed[0]]), 'a series without a complete run keeps its newest')
})
