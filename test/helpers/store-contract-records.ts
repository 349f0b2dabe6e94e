import type { Test } from 'tap'
import type { LabelCount, RunRecord } from '../../src/core/types.ts'
import type { ShadowPair } from '../../src/ports/kept-store.ts'
import type { Store } from '../../src/ports/store.ts'

/** A finished run of the `spam` judgment, with any field overridden. */
export function run(over: Partial<RunRecord> = {}): RunRecord {
  return {
    run_id: '20250101T000000-a1', judgment: 'spam', spec_hash: 'spec-1', git_sha: 'abc1234',
    model: 'jev-1', rows: 10, asked: 4, cost: 0.0012, status: 'complete',
    started_at: '2025-01-01T00:00:00', finished_at: '2025-01-01T00:00:05', cached: 6, requests: 2,
    command: 'run', source: 'messages.csv', source_hash: 'c0ffee0123456789', node: 'spam',
    reported_model: 'jev-1.0.3', states: 8, fingerprints: { is_spam: 'fp-spam', topic: 'fp-topic' },
    ...over,
  }
}

/** A label count of one run. */
export function count(run_id: string, question: string, label: string, n: number): LabelCount {
  return { run_id, question, label, count: n }
}

/** A shadow pair of the live `spam` judgment, with any field overridden. */
export function pair(over: Partial<ShadowPair> = {}): ShadowPair {
  return {
    liveJudgment: 'spam', candidateJudgment: 'spam-v2', candidateHash: 'cand-1',
    stateHash: 'state-0', question: 'is_spam', liveLabel: 'yes', candidateLabel: 'no',
    at: '2025-01-01T00:00:00', ...over,
  }
}

/** The Store contract for runs, rows kept for replay and shadow pairs. */
export function recordsContract(t: Test, fresh: (t: Test) => Store): void {
  runContract(t, fresh)
  keptContract(t, fresh)
  shadowContract(t, fresh)
}

function keptContract(t: Test, fresh: (t: Test) => Store): void {
  t.test('a kept row is inserted once, then bumped on each sighting', async (t) => {
    const store = fresh(t)
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
    t.same(store.keptRows('spam'), [{ judgment: 'spam', stateHash: 'state-0', state: { message: 'hi' },
      firstSeen: '2025-01-01T00:00:00', lastSeen: '2025-01-01T00:00:00', seen: 1 }])
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-03T00:00:00')
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-02T00:00:00')
    t.same(store.keptRows('spam'), [{ judgment: 'spam', stateHash: 'state-0', state: { message: 'hi' },
      firstSeen: '2025-01-01T00:00:00', lastSeen: '2025-01-03T00:00:00', seen: 3 }])
  })
  t.test('a sighting older than the first moves first_seen back', async (t) => {
    const store = fresh(t)
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-02T00:00:00')
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
    const [row] = store.keptRows('spam')
    t.equal(row.firstSeen, '2025-01-01T00:00:00')
    t.equal(row.lastSeen, '2025-01-02T00:00:00')
  })
  t.test('kept rows come in the order first seen, ties in the order kept, per judgment', async (t) => {
    const store = fresh(t)
    store.keepRow('spam', 'state-b', { message: 'b' }, '2025-01-02T00:00:00')
    store.keepRow('spam', 'state-c', { message: 'c' }, '2025-01-01T00:00:00')
    store.keepRow('ham', 'state-z', { message: 'z' }, '2025-01-01T00:00:00')
    store.keepRow('spam', 'state-a', { message: 'a' }, '2025-01-02T00:00:00')
    store.keepRow('spam', 'state-c', { message: 'c' }, '2025-01-09T00:00:00')
    t.same(store.keptRows('spam').map((r) => r.stateHash), ['state-c', 'state-b', 'state-a'])
    t.same(store.keptRows('ham').map((r) => r.state), [{ message: 'z' }])
    t.same(store.keptRows('nobody'), [])
  })
  t.test('a kept row makes its state known to the store', async (t) => {
    const store = fresh(t)
    store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
    t.same(store.getStates(['state-0']).get('state-0'), { message: 'hi' })
  })
}

function shadowContract(t: Test, fresh: (t: Test) => Store): void {
  t.test('shadow pairs come back for their live judgment, in the order recorded', async (t) => {
    const store = fresh(t)
    const late = pair({ stateHash: 'state-1', at: '2025-01-02T00:00:00' })
    const early = pair({ question: 'topic', liveLabel: 'personal', candidateLabel: 'service' })
    store.recordShadow([late, early])
    store.recordShadow([pair({ liveJudgment: 'ham' })])
    store.recordShadow([])
    t.same(store.shadowPairs('spam'), [early, late])
    t.same(store.shadowPairs('ham'), [pair({ liveJudgment: 'ham' })])
    t.same(store.shadowPairs('nobody'), [])
  })
  t.test('recording a shadow pair again replaces it; an edited candidate is a new pair', async (t) => {
    const store = fresh(t)
    store.recordShadow([pair()])
    const repeat = pair({ liveLabel: 'no', candidateLabel: 'no', at: '2025-01-05T00:00:00' })
    const edited = pair({ candidateHash: 'cand-2', at: '2025-01-04T00:00:00' })
    store.recordShadow([repeat, edited])
    t.same(store.shadowPairs('spam'), [edited, repeat])
  })
}

function runContract(t: Test, fresh: (t: Test) => Store): void {
  t.test('a recorded run comes back with every field', async (t) => {
    const store = fresh(t)
    const record = run({ status: 'failed: engine answered 500' })
    store.recordRun(record, [])
    t.same(store.listRuns(['spam'], 50), [record])
    t.same(Object.keys(store.listRuns(['spam'], 50)[0]), Object.keys(run()))
  })
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
    store.recordRun(run({ run_id: 'r2', rows: 3, started_at: '2025-01-02T00:00:00' }),
      [count('r2', 'is_spam', 'yes', 1), count('r2', 'is_spam', 'no', 2)])
    store.recordRun(run({ run_id: 'r1', rows: 4, started_at: '2025-01-01T00:00:00' }),
      [count('r1', 'is_spam', 'no', 4), count('r1', 'topic', 'promotion', 4)])
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
    t.same(store.runLabelCounts('spam'), [{ ...count(again.run_id, 'is_spam', 'no', 2), rows: 2, started_at: again.started_at,
      status: 'failed: stopped', command: 'run', source: 'messages.csv', reported_model: 'jev-1.0.3' }])
  })
}
