import type { Test } from 'tap'
import type { LabelCount, ModelCheck, RunRecord } from '../../../src/core/types.ts'
import type { RunStore } from '../../../src/ports/run-store.ts'
import { freshOf, type Closable } from './fresh.ts'

/** A finished run of the `spam` judgment, with any field overridden. */
export function run(over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: '20250101T000000-a1',
    judgment: 'spam',
    spec_hash: 'spec-1',
    git_sha: 'abc1234',
    model: 'jev-1',
    rows: 10,
    asked: 4,
    cost: 0.0012,
    status: 'complete',
    started_at: '2025-01-01T00:00:00',
    finished_at: '2025-01-01T00:00:05',
    cached: 6,
    requests: 2,
    command: 'run',
    source: 'messages.csv',
    source_hash: 'c0ffee0123456789',
    node: 'spam',
    reported_model: 'jev-1.0.3',
    states: 8,
    fingerprints: { is_spam: 'fp-spam', topic: 'fp-topic' },
    fit: {},
    routes: {},
    sources: {},
    ...over,
  }
}

/** A label count of one run; its distinct states and Σ m² unknown (null) unless given. */
export function count(
  run_id: string,
  question: string,
  label: string,
  n: number,
  states: number | null = null,
  squares: number | null = null,
): LabelCount {
  return { run_id, question, label, count: n, states, squares }
}

/** A model check of run `r2` against `r1`, with any field overridden. */
export function check(over: Partial<ModelCheck> = {}): ModelCheck {
  return {
    run_id: 'r2',
    baseline: 'r1',
    old_model: 'jev-1',
    new_model: 'jev-2',
    rows_from: 'sample',
    states: 3,
    same_rows: true,
    stopped: '',
    asked: 9,
    cost: 0.0001,
    pairs: [
      { question: 'is_spam', old_label: 'no', new_label: 'yes', rows: 1 },
      { question: 'is_spam', old_label: 'yes', new_label: 'yes', rows: 2 },
    ],
    ...over,
  }
}

const states = (...pairs: [string, number][]) => pairs.map(([stateHash, rows]) => ({ stateHash, rows }))

/**
 * The RunStore contract: run records, their label counts, the states they judged and their model checks. Run on stores made by `open`, one fresh store per test, closed after it.
 */
export function runStoreContract(t: Test, title: string, open: () => Closable<RunStore>): Promise<void> {
  return t
    .test(title, async (t) => {
      const fresh = freshOf(open)
      t.test('a recorded run comes back with every field', async (t) => {
        const store = fresh(t)
        const record = run({ status: 'failed: engine answered 500' })
        store.recordRun(record, [])
        t.same(store.listRuns(['spam'], 50), [record])
        t.same(Object.keys(store.listRuns(['spam'], 50)[0]), Object.keys(run()))
      })
      t.test('a run keeps its fit per question; a run recorded without one reads as {}', async (t) => {
        const store = fresh(t)
        const fit = {
          is_spam: {
            answers: 8,
            known: 7,
            median: 0.31,
            p10: 0.1,
            min_fit: 0.5,
            fits: false,
            lowest: [{ state_hash: 's1', option_mass: 0.05 }],
          },
        }
        store.recordRun(run({ fit }), [])
        const { fit: _, ...without } = run({ run_id: 'r-old' })
        store.recordRun(without, [])
        t.same(store.getRun(run().run_id)?.fit, fit)
        t.same(store.getRun('r-old')?.fit, {})
      })
      t.test('a run keeps its rows per route; a run recorded without them reads as {}', async (t) => {
        const store = fresh(t)
        const routes = { is_spam: { block: 1, review: 0, deliver: 8, '': 1 } }
        store.recordRun(run({ routes }), [])
        const { routes: _, ...without } = run({ run_id: 'r-old' })
        store.recordRun(without, [])
        t.same(store.getRun(run().run_id)?.routes, routes)
        t.same(store.listRuns(['spam'], 50).find((r) => r.run_id === 'r-old')?.routes, {})
      })
      t.test(
        'a run keeps its answers per question and source of p; one recorded without them reads as {}',
        async (t) => {
          const store = fresh(t)
          const sources = { is_spam: { samples: 7, text: 1 }, topic: {} }
          store.recordRun(run({ sources }), [])
          const { sources: _, ...without } = run({ run_id: 'r-old' })
          store.recordRun(without, [])
          t.same(store.getRun(run().run_id)?.sources, sources)
          t.same(store.listRuns(['spam'], 50).find((r) => r.run_id === 'r-old')?.sources, {})
        },
      )
      t.test('runs are listed newest first, limited, for the judgments asked', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 'r1', started_at: '2025-01-01T00:00:00' }), [])
        store.recordRun(run({ run_id: 'r3', started_at: '2025-01-03T00:00:00' }), [])
        store.recordRun(run({ run_id: 'r2b', started_at: '2025-01-02T00:00:00' }), [])
        store.recordRun(run({ run_id: 'r2a', started_at: '2025-01-02T00:00:00' }), [])
        store.recordRun(run({ run_id: 'h1', judgment: 'ham', started_at: '2025-01-05T00:00:00' }), [])
        const ids = (runs: RunRecord[]) => runs.map((r) => r.run_id)
        t.same(ids(store.listRuns(['spam'], 50)), ['r3', 'r2b', 'r2a', 'r1'])
        t.same(ids(store.listRuns(['spam', 'ham'], 2)), ['h1', 'r3'])
        t.same(ids(store.listRuns(['ham'], 50)), ['h1'])
        t.same(store.listRuns([], 50), [])
        t.same(store.listRuns(['spam'], 0), [])
      })
      t.test('label counts of a judgment come oldest run first, in the order recorded', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 'r2', rows: 3, started_at: '2025-01-02T00:00:00' }), [
          count('r2', 'is_spam', 'yes', 1),
          count('r2', 'is_spam', 'no', 2),
        ])
        store.recordRun(run({ run_id: 'r1', rows: 4, started_at: '2025-01-01T00:00:00' }), [
          count('r1', 'is_spam', 'no', 4),
          count('r1', 'topic', 'promotion', 4),
        ])
        store.recordRun(run({ run_id: 'h1', judgment: 'ham' }), [count('h1', 'is_ham', 'yes', 10)])
        const of = { status: 'complete', command: 'run', source: 'messages.csv', reported_model: 'jev-1.0.3' }
        t.same(store.runLabelCounts('spam'), [
          { ...count('r1', 'is_spam', 'no', 4), rows: 4, started_at: '2025-01-01T00:00:00', ...of },
          { ...count('r1', 'topic', 'promotion', 4), rows: 4, started_at: '2025-01-01T00:00:00', ...of },
          { ...count('r2', 'is_spam', 'yes', 1), rows: 3, started_at: '2025-01-02T00:00:00', ...of },
          { ...count('r2', 'is_spam', 'no', 2), rows: 3, started_at: '2025-01-02T00:00:00', ...of },
        ])
        t.same(store.runLabelCounts('nobody'), [])
      })
      t.test('recording a run again replaces it and its counts; repeated labels add up', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ status: 'complete' }), [count('x', 'is_spam', 'yes', 1)])
        const again = run({ status: 'failed: stopped', rows: 2 })
        store.recordRun(again, [count('x', 'is_spam', 'no', 1), count('x', 'is_spam', 'no', 1)])
        t.same(store.listRuns(['spam'], 50), [again])
        t.same(store.runLabelCounts('spam'), [
          {
            ...count(again.run_id, 'is_spam', 'no', 2),
            rows: 2,
            started_at: again.started_at,
            status: 'failed: stopped',
            command: 'run',
            source: 'messages.csv',
            reported_model: 'jev-1.0.3',
          },
        ])
      })
      t.test(
        'label counts keep their distinct states and Σ m²; repeated labels add them up, and one unknown makes the sum unknown',
        async (t) => {
          const store = fresh(t)
          const { run_id } = run()
          store.recordRun(run(), [
            count(run_id, 'is_spam', 'yes', 7, 2, 25),
            count(run_id, 'is_spam', 'no', 3, 2, 5),
            count(run_id, 'is_spam', 'no', 1, 1, 1),
            count(run_id, 'topic', 'promotion', 2, 1, 4),
            count(run_id, 'topic', 'promotion', 1),
          ])
          store.recordRun(run({ run_id: 'r0', started_at: '2024-01-01T00:00:00' }), [
            { run_id: 'r0', question: 'is_spam', label: 'yes', count: 1 },
          ])
          t.same(
            store.runLabelCounts('spam').map((c) => [c.run_id, c.question, c.label, c.count, c.states, c.squares]),
            [
              ['r0', 'is_spam', 'yes', 1, null, null],
              [run_id, 'is_spam', 'yes', 7, 2, 25],
              [run_id, 'is_spam', 'no', 4, 3, 6],
              [run_id, 'topic', 'promotion', 3, null, null],
            ],
          )
        },
      )
      t.test(
        'a run keeps the states it judged with their rows, read in hash order from any point, wrapping round',
        async (t) => {
          const store = fresh(t)
          store.recordRun(run({ run_id: 'r1' }), [], states(['c', 1], ['a', 3], ['e', 1], ['b', 2]))
          store.recordRun(run({ run_id: 'r2' }), [], states(['z', 1]))
          t.same(store.runStates('r1', '', 10), states(['a', 3], ['b', 2], ['c', 1], ['e', 1]))
          t.same(store.runStates('r1', 'bb', 10), states(['c', 1], ['e', 1], ['a', 3], ['b', 2]))
          t.same(store.runStates('r1', 'c', 3), states(['c', 1], ['e', 1], ['a', 3]))
          t.same(store.runStates('r1', 'f', 2), states(['a', 3], ['b', 2]))
          t.same(store.runStates('r1', '', 0), [])
          t.same(store.runStates('nope', '', 5), [])
          store.recordRun(run({ run_id: 'r1' }), [], states(['d', 4]))
          t.same(store.runStates('r1', '', 10), states(['d', 4]), 'recording a run again replaces its states')
          t.same(store.runStates('r2', '', 10), states(['z', 1]))
          store.recordRun(run({ run_id: 'r3' }), [])
          t.same(store.runStates('r3', '', 10), [], 'a run recorded without states has none')
        },
      )
      t.test('a run is found by its id, and its states read a page at a time in hash order', async (t) => {
        const store = fresh(t)
        const all = states(['g', 1], ['f', 2], ['e', 3], ['d', 4], ['c', 5], ['b', 6], ['a', 7])
        store.recordRun(run({ run_id: 'r1' }), [], all)
        store.recordRun(run({ run_id: 'r2' }), [], states(['0', 1]))
        t.same(store.getRun('r1'), run({ run_id: 'r1' }))
        t.equal(store.getRun('nope'), null)
        const sorted = [...all].reverse()
        t.same(store.runStatesPage('r1', 0, 3), sorted.slice(0, 3))
        t.same(store.runStatesPage('r1', 3, 3), sorted.slice(3, 6))
        t.same(store.runStatesPage('r1', 6, 3), sorted.slice(6))
        t.same(store.runStatesPage('r1', 9, 3), [])
        t.same(store.runStatesPage('r1', -2, 2), sorted.slice(0, 2), 'a negative offset is the start')
        t.same(store.runStatesPage('nope', 0, 3), [])
      })
      t.test("a run's row list can be deleted alone: its record and label counts stay", async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 'r1' }), [count('r1', 'is_spam', 'yes', 3)], states(['a', 1], ['b', 2]))
        store.recordRun(run({ run_id: 'r2' }), [count('r2', 'is_spam', 'no', 2)], states(['a', 1], ['c', 1], ['d', 1]))
        store.recordRun(run({ run_id: 'r3' }), [], states(['e', 1]))
        t.same([store.runStateCount('r1'), store.runStateCount('r2'), store.runStateCount('nope')], [2, 3, 0])
        t.equal(store.deleteRunStates(['r1', 'r2', 'nope']), 5)
        t.same([store.runStateCount('r1'), store.runStateCount('r2'), store.runStateCount('r3')], [0, 0, 1])
        t.same(store.runStatesPage('r1', 0, 10), [])
        t.same(store.getRun('r1'), run({ run_id: 'r1' }), 'the run record stays')
        t.equal(store.runLabelCounts(run().judgment).length, 2, 'and its label counts')
        t.equal(store.deleteRunStates(['r1']), 0, 'deleting again deletes nothing')
        t.equal(store.deleteRunStates([]), 0)
      })
      t.test('two runs have the same states only when every state and its rows match', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 'a' }), [], states(['s1', 1], ['s2', 2]))
        store.recordRun(run({ run_id: 'b' }), [], states(['s2', 2], ['s1', 1]))
        store.recordRun(run({ run_id: 'c' }), [], states(['s1', 1], ['s2', 3]))
        store.recordRun(run({ run_id: 'd' }), [], states(['s1', 1], ['s2', 2], ['s3', 1]))
        t.ok(store.sameRunStates('a', 'b'))
        t.notOk(store.sameRunStates('a', 'c'), 'other rows')
        t.notOk(store.sameRunStates('a', 'd'), 'a state more')
        t.notOk(store.sameRunStates('d', 'a'), 'a state fewer')
      })
      t.test('the latest run of each judgment comes back with its fingerprints', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 's1', started_at: '2025-01-01T00:00:00' }), [])
        store.recordRun(run({ run_id: 's2', started_at: '2025-01-02T00:00:00', fingerprints: { is_spam: 'fp-2' } }), [])
        store.recordRun(run({ run_id: 'h1', judgment: 'ham', started_at: '2025-01-01T00:00:00' }), [])
        t.same(
          store.latestRuns().map((r) => [r.judgment, r.run_id, r.fingerprints]),
          [
            ['ham', 'h1', run().fingerprints],
            ['spam', 's2', { is_spam: 'fp-2' }],
          ],
        )
      })
      t.test('a model check comes back with its pairs for its judgment, replaced when recorded again', async (t) => {
        const store = fresh(t)
        store.recordRun(run({ run_id: 'r1', started_at: '2025-01-01T00:00:00' }), [count('r1', 'is_spam', 'yes', 1)])
        store.recordRun(run({ run_id: 'r2', started_at: '2025-01-02T00:00:00' }), [])
        store.recordRun(run({ run_id: 'h1', judgment: 'ham' }), [])
        t.same(store.modelChecks('spam'), [])
        store.recordModelCheck(check())
        store.recordModelCheck(check({ run_id: 'h1', baseline: 'h0', pairs: [] }))
        t.same(store.modelChecks('spam'), [check()])
        const again = check({
          same_rows: false,
          stopped: 'cost cap',
          pairs: [{ question: 'topic', old_label: 'a', new_label: 'b', rows: 5 }],
        })
        store.recordModelCheck(again)
        t.same(store.modelChecks('spam'), [again])
        t.same(store.modelChecks('ham'), [check({ run_id: 'h1', baseline: 'h0', pairs: [] })])
        store.recordRun(run({ run_id: 'r3', started_at: '2025-01-03T00:00:00' }), [])
        const third = check({
          run_id: 'r3',
          baseline: 'r2',
          pairs: [{ question: 'is_spam', old_label: 'yes', new_label: 'no', rows: 2 }],
        })
        store.recordModelCheck(third)
        t.same(store.modelChecks('spam'), [again, third], 'each check with its own pairs, oldest run first')
        t.throws(() => store.recordModelCheck(check({ run_id: 'nope' })), /FOREIGN KEY/, 'a check belongs to a run')
      })
      t.test('a run still going is kept apart, replaced as it goes, and ended by its record', async (t) => {
        const store = fresh(t)
        const going = run({ run_id: 'r-open', status: 'running', asked: 1, cost: 0.0001 })
        const open = {
          run: going,
          counts: [count('r-open', 'is_spam', 'yes', 1)],
          pid: 4242,
          host: 'box-1',
          heartbeat_at: '2025-01-01T00:00:02',
        }
        store.putOpenRun(open)
        t.same(store.openRuns(), [open])
        t.same(store.listRuns(['spam'], 50), [], 'no listing shows it')
        t.equal(store.getRun('r-open'), null)
        const later = { ...open, run: { ...going, asked: 3, cost: 0.0003 }, heartbeat_at: '2025-01-01T00:00:04' }
        store.putOpenRun(later)
        t.same(store.openRuns(), [later], 'the newer state replaces the older')
        store.putOpenRun({ ...open, run: run({ run_id: 'r-other' }) })
        t.same(
          store.openRuns().map((o) => o.run.run_id),
          ['r-open', 'r-other'],
        )
        store.recordRun(run({ run_id: 'r-open', asked: 4 }), [])
        t.same(
          store.openRuns().map((o) => o.run.run_id),
          ['r-other'],
          'recording the run ends it',
        )
      })
      t.test('an abandoned open run is closed once, with its counts; a run already ended is not', async (t) => {
        const store = fresh(t)
        const going = run({ run_id: 'r-open', status: 'running' })
        store.putOpenRun({ run: going, counts: [], pid: 1, host: 'h', heartbeat_at: '2025-01-01T00:00:02' })
        const ended = run({ run_id: 'r-open', status: 'failed: interrupted', finished_at: '2025-01-01T00:00:02' })
        t.equal(store.closeOpenRun(ended, [count('r-open', 'is_spam', 'no', 2)]), true)
        t.same(store.openRuns(), [])
        t.same(store.listRuns(['spam'], 50), [ended])
        t.same(
          store.runLabelCounts('spam').map((c) => [c.question, c.label, c.count, c.status]),
          [['is_spam', 'no', 2, 'failed: interrupted']],
        )
        t.equal(
          store.closeOpenRun(run({ run_id: 'r-open', status: 'failed: twice' }), []),
          false,
          'a second close finds nothing open',
        )
        t.equal(store.getRun('r-open')?.status, 'failed: interrupted', 'and writes nothing')
        t.equal(store.closeOpenRun(run({ run_id: 'r-never' }), []), false)
        t.equal(store.getRun('r-never'), null)
      })
    })
    .then(() => undefined)
}
