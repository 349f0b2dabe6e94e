import t from 'tap'
import { recordRuns, type Pass } from '../../src/app/record-runs.ts'
import type { RowsOutcome } from '../../src/core/judge/judge-rows.ts'
import { createLedger } from '../../src/core/judge/ledger.ts'
import { createStateTally } from '../../src/core/judge/state-set.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { project, spec } from '../helpers/specs.ts'

const yaml = (name: string, more = '') => `name: ${name}\nstate: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n${more}`
const a = spec(yaml('a', 'model: m-a\n'), '/specs/a.judge.yaml')
const b = spec(yaml('b'), '/specs/b.judge.yaml')
const started = new Date('2026-11-22T09:59:00.000Z')

function outcome(error: Error | null = null): RowsOutcome {
  const states = createStateTally()
  for (const hash of ['00000000000000aa', '00000000000000bb', '00000000000000aa']) states.add(hash)
  return {
    rows: new Map([['a', 3], ['b', 0]]),
    labels: new Map([['a', new Map([['q', new Map([['yes', 2], ['no', 1]])]])], ['b', new Map()]]),
    states: new Map([['a', states], ['b', createStateTally()]]),
    error,
  }
}

function pass(more: Partial<Pass> = {}): Pass {
  const ledger = createLedger(1)
  Object.assign(ledger.tally('a'), { cached: 1, asked: 2, requests: 2, cost: 0.000_012_345_678_9 })
  return { project: project(a, b), record: [a, b], outcome: outcome(), ledger, started, ...more }
}

t.test('one run is recorded per judgment named, with its rows, tally, model, commit and times', async (t) => {
  const d = deps(null)
  const runs = await recordRuns(app(d, createMemoryFiles({ sha: 'f00ba47' })), pass())
  t.match(runs, [
    { judgment: 'a', spec_hash: a.hash, git_sha: 'f00ba47', model: 'm-a', rows: 3, asked: 2, cached: 1, requests: 2, cost: 0.000012346, status: 'complete', started_at: '2026-11-22T09:59:00.000', finished_at: '2026-11-22T10:00:00.000' },
    { judgment: 'b', model: 'jev-test', rows: 0, asked: 0, cached: 0, requests: 0, cost: 0, status: 'complete' },
  ])
  t.match(runs[0].run_id, /^20261122T095900Z-[0-9a-z]{6}$/)
  t.same(d.store.listRuns(['a', 'b'], 50).map((r) => r.judgment).sort(), ['a', 'b'])
})

t.test('each run gets its judgment\'s label counts', async (t) => {
  const d = deps(null)
  const [run] = await recordRuns(app(d), pass({ record: [a] }))
  t.same(d.store.runLabelCounts('a').map((c) => [c.run_id, c.question, c.label, c.count]), [[run.run_id, 'q', 'yes', 2], [run.run_id, 'q', 'no', 1]])
  t.same(d.store.listRuns(['b'], 50), [], 'a judgment not named is not recorded')
})

t.test('each run gets the states its judgment judged, with their rows', async (t) => {
  const d = deps(null)
  const [run] = await recordRuns(app(d), pass({ record: [a] }))
  t.same(d.store.runStates(run.run_id, 0, 10), [{ stateHash: '00000000000000aa', rows: 2 }, { stateHash: '00000000000000bb', rows: 1 }])
})

t.test('a pass stopped by an error records every run as failed with the error\'s message', async (t) => {
  const runs = await recordRuns(app(deps(null)), pass({ outcome: outcome(new Error('engine answered 500: overloaded')) }))
  t.same(runs.map((r) => r.status), ['failed: engine answered 500: overloaded', 'failed: engine answered 500: overloaded'])
})
