import t from 'tap'
import { fitOfRun, lastRunFits, withFitStates } from '../../src/app/fit.ts'
import type { QuestionFit } from '../../src/core/fit/fit.ts'
import type { RunRecord } from '../../src/core/types.ts'
import { run } from '../helpers/contracts/run-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec } from '../helpers/specs.ts'

const topic: QuestionFit = {
  answers: 2,
  known: 2,
  median: 0.2,
  p10: 0.1,
  min_fit: 0.5,
  fits: false,
  lowest: [
    { state_hash: 'h1', option_mass: 0.1 },
    { state_hash: 'h-gone', option_mass: 0.3 },
  ],
}

t.test(
  "a run's rows of lowest mass get their values from the store, or null when it no longer holds them",
  async (t) => {
    const store = createMemoryStore()
    store.putAnswers([], 'h1', { message: 'win' })
    t.same(withFitStates(store, { topic }).topic.lowest, [
      { state_hash: 'h1', option_mass: 0.1, state: { message: 'win' } },
      { state_hash: 'h-gone', option_mass: 0.3, state: null },
    ])
    t.same(withFitStates(null, { topic }), { topic }, 'no store: as recorded')
    t.same(withFitStates(store, undefined), {})
  },
)

t.test(
  "each judgment's newest run gives its fit; runs without one, and judgments without runs, give none",
  async (t) => {
    const spam = spec()
    const ham = spec(undefined, '/specs/ham.judge.yaml')
    const store = createMemoryStore()
    const a = app(deps(null, store))
    t.same(lastRunFits(a, project(spam), [spam]), [])
    store.recordRun(run({ run_id: 'old', started_at: '2025-01-01T00:00:00', fit: { topic } }), [])
    store.recordRun(
      run({ run_id: 'new', started_at: '2025-01-02T00:00:00', fit: { topic: { ...topic, lowest: [] } } }),
      [],
    )
    t.same(lastRunFits(a, project(spam), [spam]), [
      { judgment: 'spam', run_id: 'new', started_at: '2025-01-02T00:00:00', fit: { topic: { ...topic, lowest: [] } } },
    ])
    store.recordRun(run({ run_id: 'newest', started_at: '2025-01-03T00:00:00' }), [])
    t.same(lastRunFits(a, project(spam, ham), [spam, ham]), [], 'a newest run recorded without a fit')
    const record: RunRecord = run({ fit: { topic } })
    t.equal(fitOfRun(a, project(spam), record).topic.lowest[0].state, null)
  },
)

t.test('a project without a store gives none, and makes none', async (t) => {
  const spam = spec()
  t.same(lastRunFits({ ...app(deps(null)), existingStore: () => null }, project(spam), [spam]), [])
})
