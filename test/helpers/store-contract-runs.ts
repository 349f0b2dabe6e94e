import type { Test } from 'tap'
import type { ModelCheck } from '../../src/core/types.ts'
import type { Store } from '../../src/ports/store.ts'
import { answer } from './store-contract.ts'
import { count, run } from './store-contract-records.ts'

/** A model check of run `r2` against `r1`, with any field overridden. */
export function check(over: Partial<ModelCheck> = {}): ModelCheck {
  return {
    run_id: 'r2', baseline: 'r1', old_model: 'jev-1', new_model: 'jev-2', rows_from: 'sample', states: 3,
    same_rows: true, stopped: '', asked: 9, cost: 0.0001,
    pairs: [{ question: 'is_spam', old_label: 'no', new_label: 'yes', rows: 1 }, { question: 'is_spam', old_label: 'yes', new_label: 'yes', rows: 2 }],
    ...over,
  }
}

const states = (...pairs: [string, number][]) => pairs.map(([stateHash, rows]) => ({ stateHash, rows }))

/** The Store contract for what runs ran on: their states, model checks, answer groups and candidates. */
export function provenanceContract(t: Test, fresh: (t: Test) => Store): void {
  t.test('a run keeps the states it judged with their rows, read in hash order from any point, wrapping round', async (t) => {
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
  })
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
  t.test('a run\'s row list can be deleted alone: its record and label counts stay', async (t) => {
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
    t.same(store.latestRuns().map((r) => [r.judgment, r.run_id, r.fingerprints]), [['ham', 'h1', run().fingerprints], ['spam', 's2', { is_spam: 'fp-2' }]])
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
    const again = check({ same_rows: false, stopped: 'cost cap', pairs: [{ question: 'topic', old_label: 'a', new_label: 'b', rows: 5 }] })
    store.recordModelCheck(again)
    t.same(store.modelChecks('spam'), [again])
    t.same(store.modelChecks('ham'), [check({ run_id: 'h1', baseline: 'h0', pairs: [] })])
    store.recordRun(run({ run_id: 'r3', started_at: '2025-01-03T00:00:00' }), [])
    const third = check({ run_id: 'r3', baseline: 'r2', pairs: [{ question: 'is_spam', old_label: 'yes', new_label: 'no', rows: 2 }] })
    store.recordModelCheck(third)
    t.same(store.modelChecks('spam'), [again, third], 'each check with its own pairs, oldest run first')
    t.throws(() => store.recordModelCheck(check({ run_id: 'nope' })), /FOREIGN KEY/, 'a check belongs to a run')
  })
  t.test('answers are grouped by first asker, model and fingerprint with their count and age; a group can be deleted', async (t) => {
    const store = fresh(t)
    for (const [i, at] of ['2025-01-03T00:00:00', '2025-01-01T00:00:00', '2025-01-02T00:00:00'].entries()) {
      store.putAnswers([answer({ stateHash: `s${i}`, askedAt: at })], `s${i}`, {})
    }
    store.putAnswers([answer({ stateHash: 's0', fingerprint: 'fp-old', askedAt: '2024-12-01T00:00:00' })], 's0', {})
    store.putAnswers([answer({ stateHash: 's0', model: 'jev-2' }), answer({ stateHash: 's0', judgment: 'ham', fingerprint: 'fp-ham' })], 's0', {})
    const group = { judgment: 'spam', question: 'is_spam' }
    t.same(store.answerGroups(), [
      { judgment: 'ham', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-ham', answers: 1, oldest: '2025-01-01T00:00:00', newest: '2025-01-01T00:00:00' },
      { ...group, model: 'jev-1', fingerprint: 'fp-spam', answers: 3, oldest: '2025-01-01T00:00:00', newest: '2025-01-03T00:00:00' },
      { ...group, model: 'jev-1', fingerprint: 'fp-old', answers: 1, oldest: '2024-12-01T00:00:00', newest: '2024-12-01T00:00:00' },
      { ...group, model: 'jev-2', fingerprint: 'fp-spam', answers: 1, oldest: '2025-01-01T00:00:00', newest: '2025-01-01T00:00:00' },
    ])
    t.equal(store.deleteAnswers({ ...group, model: 'jev-1', fingerprint: 'fp-old' }), 1)
    t.equal(store.deleteAnswers({ ...group, model: 'jev-1', fingerprint: 'fp-old' }), 0)
    t.equal(store.deleteAnswers({ judgment: 'other', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }), 0, 'only the group named')
    t.equal(store.countAnswers('jev-1', 'fp-spam'), 3)
    t.equal(store.answerGroups().length, 3)
    t.same(store.getStates(['s0']).get('s0'), {}, 'states stay')
  })
  t.test('shadow candidates are kept per question, the newest sighting winning, with or without pairs', async (t) => {
    const store = fresh(t)
    const q = (question: string, seenAt: string, fingerprint = `fp-${question}`) => ({ judgment: 'spam-v2', specHash: 'c1', question, fingerprint, seenAt })
    t.same(store.candidateQuestions(), [])
    store.recordShadow([], [q('topic', '2025-01-02T00:00:00'), q('is_spam', '2025-01-02T00:00:00')])
    store.recordShadow([], [q('is_spam', '2025-01-01T00:00:00')])
    store.recordShadow([], [q('is_spam', '2025-01-03T00:00:00', 'fp-new')])
    t.same(store.candidateQuestions(), [q('is_spam', '2025-01-03T00:00:00', 'fp-new'), q('topic', '2025-01-02T00:00:00')])
    t.same(store.shadowPairs('spam'), [])
  })
}
