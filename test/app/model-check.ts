import t from 'tap'
import { MODEL_CHECK_STATES } from '../../src/app/model-check.ts'
import { runRows } from '../../src/app/run.ts'
import { likeDriftOfSpec } from '../../src/app/runs.ts'
import { shortHash } from '../../src/core/hash.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { totalVariation, shares } from '../../src/core/reports/drift.ts'
import type { Spec } from '../../src/core/types.ts'
import type { Store } from '../../src/ports/store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { createVersionedEngine, dataFiles, message } from '../helpers/versioned-engine.ts'

const spam = spec()
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i)

/** An app over one store whose clock moves a second per reading, asking with `model` unless a spec names one. */
let clock = Date.parse('2026-11-22T10:00:00.000Z')
function appWith(
  store: Store,
  engine: ReturnType<typeof createVersionedEngine>,
  model: string,
  files: Record<string, readonly number[]>,
) {
  return app({ ...deps(engine, store), defaultModel: model, now: () => new Date((clock += 1000)) }, dataFiles(files))
}

async function run(a: ReturnType<typeof appWith>, s: Spec, file: string, cap = 1) {
  const [record] = await runRows(a, {
    project: project(s),
    specs: [s],
    source: { kind: 'file', file, label: file },
    cap,
    concurrency: 4,
  })
  return record
}

/** The is_spam mix of the given states under one model, read from the store: the distance computed directly. */
function mixUnder(store: Store, model: string, hashes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const a of store.answersForStates(model, spam.questions[0].fingerprint, hashes))
    counts[a.label] = (counts[a.label] ?? 0) + 1
  return shares(counts)
}

t.test(
  "a pinned model replaced on unchanged data: the model part is the two models' distance on the sampled rows, the data part 0",
  async (t) => {
    const store = createMemoryStore()
    const engine = createVersionedEngine()
    const files = { '/specs/data.csv': range(0, 1000) }
    const first = await run(appWith(store, engine, 'jev-1.0', files), spam, '/specs/data.csv')
    const second = await run(appWith(store, engine, 'jev-2.0', files), spam, '/specs/data.csv')
    t.match(first, { reported_model: 'jev-1.0', source: 'data.csv', command: 'run', states: 1000 })
    t.match(second, { reported_model: 'jev-2.0', status: 'complete', asked: 3000 })
    const [check] = store.modelChecks('spam')
    t.match(check, {
      run_id: second.run_id,
      baseline: first.run_id,
      old_model: 'jev-1.0',
      new_model: 'jev-2.0',
      rows_from: 'sample',
      states: MODEL_CHECK_STATES,
      same_rows: true,
      stopped: '',
      asked: 0,
    })
    const sampled = store.runStates(first.run_id, shortHash(second.run_id), MODEL_CHECK_STATES).map((s) => s.stateHash)
    const direct = totalVariation(mixUnder(store, 'jev-1.0', sampled), mixUnder(store, 'jev-2.0', sampled))
    const entry = likeDriftOfSpec(app(deps(null, store)), project(spam), spam).is_spam[1]
    t.equal(entry.baseline, first.run_id)
    t.equal(
      entry.model_change,
      direct,
      `model part ${entry.model_change} is the distance on the ${sampled.length} sampled rows`,
    )
    t.equal(entry.model_rows, MODEL_CHECK_STATES)
    const flipped = sampled.filter((h) =>
      range(0, 1000).some((i) => i % 4 === 0 && stateHash({ message: message(i) }) === h),
    ).length
    t.equal(
      entry.model_flips,
      Math.round((flipped / sampled.length) * 1e9) / 1e9,
      'the flips are the rows the new model changed',
    )
    t.ok(Math.abs((entry.model_flips ?? 0) - 0.25) < 0.08, `about a quarter flipped (${entry.model_flips})`)
    t.equal(entry.change, 0.25, 'the total over every row: a quarter of the rows went from yes to no')
    t.equal(entry.data_change, 0, 'the data did not change')
    t.same(
      Object.keys(likeDriftOfSpec(app(deps(null, store)), project(spam), spam)).map(
        (q) => likeDriftOfSpec(app(deps(null, store)), project(spam), spam)[q][1].model_change,
      ),
      [direct, 0, 0],
    )
  },
)

t.test(
  "an alias that moved on new data: a sample of the baseline's states is asked of the new model by name, within the cap",
  async (t) => {
    const store = createMemoryStore()
    const engine = createVersionedEngine()
    const files = { '/specs/data.csv': range(0, 300), '/specs/later.csv': range(0, 400) }
    const a = appWith(store, engine, 'jev-latest', files)
    const first = await run(a, spam, '/specs/data.csv')
    engine.moved = true
    const cap = 0.003
    const second = await run(a, spam, '/specs/data.csv', cap)
    t.match(second, { reported_model: 'jev-1.0', asked: 0 }, "the same rows, all cached: the alias's move is not seen")
    t.same(store.modelChecks('spam'), [])
    files['/specs/data.csv'] = range(0, 400)
    const third = await run(a, spam, '/specs/data.csv', cap)
    t.match(third, { reported_model: 'jev-2.0', asked: 300, status: 'complete' })
    const [check] = store.modelChecks('spam')
    t.match(check, {
      run_id: third.run_id,
      baseline: second.run_id,
      old_model: 'jev-1.0',
      new_model: 'jev-2.0',
      same_rows: false,
      stopped: /above the cap/,
    })
    t.ok(check.states > 0 && check.states < 300, `stopped at the cap after ${check.states} states`)
    t.ok(check.cost > 0 && check.cost + third.cost <= cap, 'the check spent what the run left of the cap')
    const asked = engine.calls.filter((c) => c.model === 'jev-2.0')
    t.equal(asked.length, check.states, "each sampled state asked once, by the new model's name")
    const sampled = asked.map((c) => stateHash(c.state))
    const order = store.runStates(second.run_id, shortHash(third.run_id), 300).map((s) => s.stateHash)
    t.ok(
      sampled.every((h) => order.indexOf(h) < check.states + 8),
      'the first states of the sample, a few at a time',
    )
    const entry = likeDriftOfSpec(app(deps(null, store)), project(spam), spam).is_spam.find(
      (e) => e.run_id === third.run_id,
    )!
    t.equal(
      entry.model_change,
      totalVariation(mixUnder(store, 'jev-latest', sampled), mixUnder(store, 'jev-2.0', sampled)),
    )
    t.equal(entry.model_rows, check.states)
    t.not(entry.data_change, null, 'the data changed: its part is estimated')
    t.equal(first.source, third.source)
  },
)

t.test("a spec's anchors are the rows a model change is measured on, asked of both models when missing", async (t) => {
  const store = createMemoryStore()
  const engine = createVersionedEngine()
  const anchored = spec(`${SPAM_YAML}anchors: anchors.csv\n`)
  const files = { '/specs/data.csv': range(0, 50), '/specs/anchors.csv': range(1000, 1020) }
  await run(appWith(store, engine, 'jev-1.0', files), anchored, '/specs/data.csv')
  const second = await run(appWith(store, engine, 'jev-2.0', files), anchored, '/specs/data.csv')
  const [check] = store.modelChecks('spam')
  t.match(check, { run_id: second.run_id, rows_from: 'anchors', states: 20, asked: 20 * 3 * 2 })
  const flips = check.pairs
    .filter((p) => p.question === 'is_spam' && p.old_label !== p.new_label)
    .reduce((n, p) => n + p.rows, 0)
  t.equal(flips, 5, 'rows 1000, 1004, … 1016 of the anchors flip')
})

t.test(
  'no model check when the model did not change, the run failed, or there is nothing like to compare with',
  async (t) => {
    const store = createMemoryStore()
    const engine = createVersionedEngine()
    const files = { '/specs/a.csv': range(0, 10), '/specs/b.csv': range(0, 10) }
    await run(appWith(store, engine, 'jev-1.0', files), spam, '/specs/a.csv')
    await run(appWith(store, engine, 'jev-1.0', files), spam, '/specs/a.csv')
    await run(appWith(store, engine, 'jev-2.0', files), spam, '/specs/b.csv')
    t.same(store.modelChecks('spam'), [], 'the first run of b.csv has no baseline')
  },
)

t.test(
  "a prune as the new run is recorded cannot empty the sample: the baseline's rows are read before the run is recorded",
  async (t) => {
    const store = createMemoryStore()
    const engine = createVersionedEngine()
    const files = { '/specs/data.csv': range(0, 600) }
    const first = await run(appWith(store, engine, 'jev-1.0', files), spam, '/specs/data.csv')
    // Another process runs `judge runs --prune --keep 1 --yes` the moment a run is recorded: the
    // baseline, no longer the newest complete run, loses its rows.
    const pruning: Store = {
      ...store,
      recordRun(r, counts, states) {
        store.recordRun(r, counts, states)
        store.deleteRunStates(
          store
            .listRuns(['spam'], Infinity)
            .filter((other) => other.run_id !== r.run_id)
            .map((other) => other.run_id),
        )
      },
    }
    const second = await run(appWith(pruning, engine, 'jev-2.0', files), spam, '/specs/data.csv')
    t.equal(store.runStateCount(first.run_id), 0, 'the baseline was pruned')
    t.match(
      store.modelChecks('spam'),
      [{ run_id: second.run_id, baseline: first.run_id, rows_from: 'sample', states: MODEL_CHECK_STATES }],
      'the check measured the full sample',
    )
  },
)

t.test("a jury's runs are not model-checked: its id names no model an engine could be asked", async (t) => {
  const store = createMemoryStore()
  const engine = createVersionedEngine()
  const files = { '/specs/data.csv': range(0, 20), '/specs/more.csv': range(20, 40) }
  const juror = (model: string) => ({ model, engine: null })
  const ab: Spec = { ...spam, jurors: [juror('jev-1.0'), juror('jev-2.0')] }
  const ac: Spec = { ...spam, jurors: [juror('jev-1.0'), juror('jev-3.0')] }
  const first = await run(appWith(store, engine, 'jev-1.0', files), ab, '/specs/data.csv')
  await run(appWith(store, engine, 'jev-1.0', files), ac, '/specs/more.csv')
  const second = await run(appWith(store, engine, 'jev-1.0', files), ac, '/specs/data.csv')
  t.match(first, { model: 'jury:jev-1.0+jev-2.0', reported_model: 'jury:jev-1.0+jev-2.0', status: 'complete' })
  t.match(second, { model: 'jury:jev-1.0+jev-3.0', reported_model: 'jury:jev-1.0+jev-3.0', status: 'complete' })
  t.same(store.modelChecks('spam'), [])
  t.same(
    engine.calls.filter((c) => c.model.startsWith('jury:')),
    [],
    'no jury id sent to the engine',
  )
})
