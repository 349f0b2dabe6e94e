import t, { type Test } from 'tap'
import { join } from 'node:path'
import { pruneRunStates } from '../../src/app/run-prune.ts'
import { driftOf, likeDriftOf, listRuns } from '../../src/app/runs.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import type { RunRecord } from '../../src/core/types.ts'
import { app, deps } from '../helpers/deps.ts'
import { pragma } from '../helpers/pragma.ts'
import { run } from '../helpers/contracts/run-store.ts'
import { project, spec } from '../helpers/specs.ts'

const spam = spec()

/**
 * A store with runs of spam in two series (12 runs of messages.csv, the last three failed; 3 of
 * the answer key), each with label counts and a row list of `i + 1` states.
 */
function storeWithRuns(t: Test) {
  const file = join(t.testdir(), 'store.sqlite')
  const store = openSqliteStore(file)
  t.teardown(() => store.close())
  const runs: RunRecord[] = []
  const add = (i: number, over: Partial<RunRecord>) => {
    const r = run({
      run_id: `r${String(i).padStart(2, '0')}`,
      judgment: 'spam',
      started_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000`,
      ...over,
    })
    const states = Array.from({ length: i + 1 }, (_, k) => ({ stateHash: `s${k}`, rows: 1 }))
    store.recordRun(
      r,
      [{ run_id: r.run_id, question: 'is_spam', label: i % 3 === 0 ? 'yes' : 'no', count: i + 1 }],
      states,
    )
    runs.push(r)
  }
  for (let i = 0; i < 12; i++) add(i, { status: i >= 9 ? 'failed: interrupted' : 'complete' })
  for (let i = 12; i < 15; i++) add(i, { command: 'test', source: 'answer key' })
  return { store, runs, file }
}

t.test(
  'row lists beyond the newest runs of each series are pruned, the baseline kept; records and drift untouched',
  async (t) => {
    const { store, file } = storeWithRuns(t)
    const a = app(deps(null, store))
    const before = {
      drift: driftOf(a, project(spam), null),
      like: likeDriftOf(a, project(spam), null, {}),
      runs: listRuns(a, project(spam), null),
    }

    const dry = pruneRunStates(a, project(spam), null, 2, false)
    // messages.csv keeps r11, r10 (the newest two, failed) and r08 (its newest complete run); the key keeps r14, r13.
    t.same(
      dry.runs.map((r) => r.run_id),
      ['r12', 'r09', 'r07', 'r06', 'r05', 'r04', 'r03', 'r02', 'r01', 'r00'],
    )
    t.match(dry, { dry_run: true, keep: 2, deleted: 0 })
    t.equal(dry.states, 13 + 10 + 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1)
    t.match(dry.runs[0], {
      run_id: 'r12',
      judgment: 'spam',
      command: 'test',
      source: 'answer key',
      status: 'complete',
      states: 13,
    })
    t.equal(store.runStateCount('r00'), 1, 'a dry run deletes nothing')

    const done = pruneRunStates(a, project(spam), null, 2, true)
    t.match(done, { dry_run: false, deleted: dry.states, states: dry.states })
    for (const id of ['r12', 'r09', 'r00']) t.equal(store.runStateCount(id), 0, `${id} pruned`)
    for (const [id, n] of [
      ['r14', 15],
      ['r13', 14],
      ['r11', 12],
      ['r10', 11],
      ['r08', 9],
    ] as const)
      t.equal(store.runStateCount(id), n, `${id} kept`)
    t.same(
      {
        drift: driftOf(a, project(spam), null),
        like: likeDriftOf(a, project(spam), null, {}),
        runs: listRuns(a, project(spam), null),
      },
      before,
      'drift, like-runs drift and the run list are unchanged',
    )
    t.equal(pragma(file, 'integrity_check'), 'ok')
    t.match(
      pruneRunStates(a, project(spam), null, 2, true),
      { runs: [], states: 0, deleted: 0 },
      'nothing is left to prune',
    )
    t.match(
      pruneRunStates(a, project(spam), null, 1, false),
      { runs: [{ run_id: 'r13' }, { run_id: 'r10' }] },
      'a smaller keep finds more',
    )
  },
)

t.test('only the judgments selected are pruned, and a missing store is not made', async (t) => {
  const { store } = storeWithRuns(t)
  store.recordRun(
    run({ run_id: 'h0', judgment: 'ham', started_at: '2025-01-01T00:00:00.000' }),
    [],
    [{ stateHash: 'x', rows: 1 }],
  )
  store.recordRun(
    run({ run_id: 'h1', judgment: 'ham', started_at: '2025-01-02T00:00:00.000' }),
    [],
    [{ stateHash: 'x', rows: 1 }],
  )
  const a = app(deps(null, store))
  pruneRunStates(a, project(spam), null, 1, true)
  t.equal(store.runStateCount('h0'), 1, "another judgment's runs keep their rows")
  t.same(pruneRunStates({ ...a, existingStore: () => null }, project(spam), null, 1, true), {
    dry_run: false,
    keep: 1,
    runs: [],
    states: 0,
    deleted: 0,
  })
})
