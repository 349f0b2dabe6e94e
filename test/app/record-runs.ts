import t from 'tap'
import { recordRuns, sourceProvenance, type Pass } from '../../src/app/record-runs.ts'
import { runRows } from '../../src/app/run.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { dataFiles } from '../helpers/versioned-engine.ts'
import type { RowsOutcome } from '../../src/core/judge/judge-rows.ts'
import { createLedger } from '../../src/core/judge/ledger.ts'
import { createStateTally } from '../../src/core/judge/state-set.ts'
import { createFitTally } from '../../src/core/fit/fit-tally.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { langSpec, project, spec, toneSpec } from '../helpers/specs.ts'

const yaml = (name: string, more = '') =>
  `name: ${name}\nstate: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n${more}`
const a = spec(yaml('a', 'model: m-a\n'), '/specs/a.judge.yaml')
const b = spec(yaml('b'), '/specs/b.judge.yaml')
const started = new Date('2026-11-22T09:59:00.000Z')

function outcome(error: Error | null = null): RowsOutcome {
  const states = createStateTally()
  for (const h of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaa']) states.add(h)
  return {
    rows: new Map([
      ['a', 3],
      ['b', 0],
    ]),
    labels: new Map([
      [
        'a',
        new Map([
          [
            'q',
            new Map([
              ['yes', { rows: 2, states: 1, squares: 4 }],
              ['no', { rows: 1, states: 1, squares: 1 }],
            ]),
          ],
        ]),
      ],
      ['b', new Map()],
    ]),
    routes: new Map([
      ['a', new Map()],
      ['b', new Map()],
    ]),
    states: new Map([
      ['a', states],
      ['b', createStateTally()],
    ]),
    models: new Map([['a', { asked: new Map([['m-a-2', 2]]), cached: new Map([['m-a-1', 1]]) }]]),
    fits: new Map([
      [
        'a',
        new Map([
          [
            'q',
            fitTally([
              ['aaaaaaaaaaaaaaaa', 0.2],
              ['bbbbbbbbbbbbbbbb', 0.3],
            ]),
          ],
        ]),
      ],
    ]),
    sources: new Map([
      [
        'a',
        new Map([
          [
            'q',
            new Map([
              ['text', 1],
              ['samples', 2],
            ]),
          ],
        ]),
      ],
    ]),
    error,
  }
}

function fitTally(masses: [string, number][]) {
  const tally = createFitTally()
  for (const [hash, mass] of masses) tally.add(hash, mass)
  return tally
}

function pass(more: Partial<Pass> = {}): Pass {
  const ledger = createLedger(1)
  Object.assign(ledger.tally('a'), { cached: 1, asked: 2, requests: 2, cost: 0.000_012_345_678_9 })
  const provenance = { command: 'run' as const, source: 'data.csv', sourceHash: 'c0ffee0123456789' }
  return {
    project: project(a, b),
    record: [a, b],
    named: [a, b],
    provenance,
    outcome: outcome(),
    ledger,
    started,
    ...more,
  }
}

t.test('one run is recorded per judgment named, with its rows, tally, model, commit and times', async (t) => {
  const d = deps(null)
  const runs = await recordRuns(app(d, createMemoryFiles({ sha: 'f00ba47' })), pass())
  t.match(runs, [
    {
      judgment: 'a',
      spec_hash: a.hash,
      git_sha: 'f00ba47',
      model: 'm-a',
      rows: 3,
      asked: 2,
      cached: 1,
      requests: 2,
      cost: 0.000012346,
      status: 'complete',
      started_at: '2026-11-22T09:59:00.000',
      finished_at: '2026-11-22T10:00:00.000',
    },
    { judgment: 'b', model: 'jev-test', rows: 0, asked: 0, cached: 0, requests: 0, cost: 0, status: 'complete' },
  ])
  t.match(runs[0].run_id, /^20261122T095900Z-[0-9a-z]{6}$/)
  t.same(
    d.store
      .listRuns(['a', 'b'], 50)
      .map((r) => r.judgment)
      .sort(),
    ['a', 'b'],
  )
})

t.test("each run gets its judgment's label counts, with their distinct states and Σ m²", async (t) => {
  const d = deps(null)
  const [run] = await recordRuns(app(d), pass({ record: [a] }))
  t.same(
    d.store.runLabelCounts('a').map((c) => [c.run_id, c.question, c.label, c.count, c.states, c.squares]),
    [
      [run.run_id, 'q', 'yes', 2, 1, 4],
      [run.run_id, 'q', 'no', 1, 1, 1],
    ],
  )
  t.same(d.store.listRuns(['b'], 50), [], 'a judgment not named is not recorded')
})

t.test("each run keeps its questions' fit against the spec's min_fit, and it reads back from the store", async (t) => {
  const d = deps(null)
  const [runA, runB] = await recordRuns(app(d), pass())
  t.match(runA.fit, {
    q: {
      answers: 2,
      known: 2,
      median: 0.25,
      min_fit: 0.5,
      fits: false,
      lowest: [{ state_hash: 'aaaaaaaaaaaaaaaa', option_mass: 0.2 }, { option_mass: 0.3 }],
    },
  })
  t.same(
    runB.fit,
    { q: { answers: 0, known: 0, median: null, p10: null, min_fit: 0.5, fits: null, lowest: [] } },
    'a judgment with no rows knows nothing',
  )
  t.same(d.store.getRun(runA.run_id)?.fit, runA.fit)
})

t.test('each run keeps its answers per question and source of p, and it reads back from the store', async (t) => {
  const d = deps(null)
  const [runA, runB] = await recordRuns(app(d), pass())
  t.same(runA.sources, { q: { samples: 2, text: 1 } })
  t.same(Object.keys(runA.sources!.q), ['samples', 'text'], 'in the order of the sources')
  t.same(runB.sources, { q: {} }, 'a judgment with no rows counts none')
  t.same(d.store.getRun(runA.run_id)?.sources, runA.sources)
})

t.test("a pass stopped by an error records every run as failed with the error's message", async (t) => {
  const runs = await recordRuns(
    app(deps(null)),
    pass({ outcome: outcome(new Error('engine answered 500: overloaded')) }),
  )
  t.same(
    runs.map((r) => r.status),
    ['failed: engine answered 500: overloaded', 'failed: engine answered 500: overloaded'],
  )
})

t.test(
  'each run records what it ran on: command, source and hash, node, reported model, states and fingerprints',
  async (t) => {
    const d = deps(null)
    const [run] = await recordRuns(app(d), pass({ record: [a] }))
    t.match(run, {
      command: 'run',
      source: 'data.csv',
      source_hash: 'c0ffee0123456789',
      node: 'a',
      reported_model: 'm-a-2',
      states: 2,
    })
    t.same(run.fingerprints, { q: a.questions[0].fingerprint })
    t.same(d.store.runStates(run.run_id, '', 10), [
      { stateHash: 'aaaaaaaaaaaaaaaa', rows: 2 },
      { stateHash: 'bbbbbbbbbbbbbbbb', rows: 1 },
    ])
  },
)

const lang = langSpec()
const tone = toneSpec()

t.test("a dependency judged for a node named is recorded for it, its states and sources as the node's", async (t) => {
  const store = createMemoryStore()
  const a = app(
    deps(createFakeEngine({ defaultModel: 'fake-1' }), store),
    dataFiles({ '/specs/in/rows.csv': [1, 2, 2, 3, 1, 1] }),
  )
  const both = project(lang, tone)
  const runs = await runRows(a, {
    project: both,
    specs: [tone],
    source: { kind: 'file', file: '/specs/in/rows.csv', label: 'in/rows.csv' },
    cap: 1,
    concurrency: 2,
  })
  t.same(
    runs.map((r) => [r.judgment, r.node]),
    [
      ['lang', 'tone'],
      ['tone', 'tone'],
    ],
    'a dependency is recorded for the node named',
  )
  const hash = await dataFiles({ x: [1, 2, 2, 3, 1, 1] }).contentHash!('x')
  for (const run of runs)
    t.match(run, {
      command: 'run',
      source: 'in/rows.csv',
      source_hash: hash,
      reported_model: 'jev-test',
      rows: 6,
      states: 3,
      cached: 0,
    })
  t.same(runs[0].fingerprints, { lang: lang.questions[0].fingerprint })
  t.same(
    store
      .runStates(runs[0].run_id, '', 10)
      .map((s) => s.rows)
      .sort(),
    [1, 2, 3],
    'the states with their rows',
  )
  t.same(store.listRuns(['lang'], 1)[0].fingerprints, runs[0].fingerprints)
})

t.test("a source is a data file's path from the project folder, or rows given", async (t) => {
  const a = app(deps(null), dataFiles({}))
  t.match(await sourceProvenance(a, project(lang), { kind: 'file', file: '/specs/data.csv', label: 'x' }), {
    command: 'run',
    source: 'data.csv',
  })
  t.match(await sourceProvenance(a, project(lang), { kind: 'file', file: '/elsewhere/d.csv', label: 'x' }), {
    source: '../elsewhere/d.csv',
  })
  t.same(await sourceProvenance(a, project(lang), { kind: 'rows', rows: [] }), {
    command: 'run',
    source: 'rows given',
    sourceHash: '',
  })
})
