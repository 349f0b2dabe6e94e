import t from 'tap'
import { sourceProvenance } from '../../src/app/record-runs.ts'
import { runRows } from '../../src/app/run.ts'
import { lastFingerprints, planRows } from '../../src/app/plan.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { dataFiles } from '../helpers/versioned-engine.ts'

const lang = parseSpec('state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n', '/specs/lang.judge.yaml')
const tone = parseSpec('state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n', '/specs/tone.judge.yaml')

t.test('each run records its command, source and hash, node, reported model, states and fingerprints', async (t) => {
  const store = createMemoryStore()
  const a = app(deps(createFakeEngine({ defaultModel: 'fake-1' }), store), dataFiles({ '/specs/in/rows.csv': [1, 2, 2, 3, 1, 1] }))
  const both = project(lang, tone)
  const runs = await runRows(a, { project: both, specs: [tone], source: { kind: 'file', file: '/specs/in/rows.csv', label: 'in/rows.csv' }, cap: 1, concurrency: 2 })
  t.same(runs.map((r) => [r.judgment, r.node]), [['lang', 'tone'], ['tone', 'tone']], 'a dependency is recorded for the node named')
  const hash = await dataFiles({ x: [1, 2, 2, 3, 1, 1] }).contentHash!('x')
  for (const run of runs) t.match(run, { command: 'run', source: 'in/rows.csv', source_hash: hash, reported_model: 'jev-test', rows: 6, states: 3, cached: 0 })
  t.same(runs[0].fingerprints, { lang: lang.questions[0].fingerprint })
  t.same(store.runStates(runs[0].run_id, '', 10).map((s) => s.rows).sort(), [1, 2, 3], 'the states with their rows')
  t.same(store.listRuns(['lang'], 1)[0].fingerprints, runs[0].fingerprints)
})

t.test('a source is a data file\'s path from the project folder, or rows given', async (t) => {
  const a = app(deps(null), dataFiles({}))
  t.match(await sourceProvenance(a, project(lang), { kind: 'file', file: '/specs/data.csv', label: 'x' }), { command: 'run', source: 'data.csv' })
  t.match(await sourceProvenance(a, project(lang), { kind: 'file', file: '/elsewhere/d.csv', label: 'x' }), { source: '../elsewhere/d.csv' })
  t.same(await sourceProvenance(a, project(lang), { kind: 'rows', rows: [] }), { command: 'run', source: 'rows given', sourceHash: '' })
})

t.test('the plan reads each judgment\'s last recorded fingerprints, and none before a run recorded them', async (t) => {
  const store = createMemoryStore()
  const d = deps(createFakeEngine(), store)
  const spam = spec()
  t.same([...lastFingerprints(d, [spam])], [])
  const a = app(d, dataFiles({ '/specs/d.csv': [1, 2] }))
  await runRows(a, { project: project(spam), specs: [spam], source: { kind: 'file', file: '/specs/d.csv', label: 'd.csv' }, cap: 1, concurrency: 1 })
  const reworded = spec(SPAM_YAML.replace('How urgent is the message for its reader?', 'How urgent is it?'))
  const [plan] = await planRows(a, project(reworded), [reworded], { kind: 'file', file: '/specs/d.csv', label: 'd.csv' })
  t.same(plan.questions.map((q) => [q.question, q.changed, q.stale]), [['is_spam', false, 0], ['topic', false, 0], ['urgency', true, 2]])
  t.match(plan, { states: 2, cached: 4, ask: 2, requests: 2 })
})
