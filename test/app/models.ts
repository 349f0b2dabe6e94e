import t from 'tap'
import { engineModels } from '../../src/app/models.ts'
import { EngineError } from '../../src/errors.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { spec } from '../helpers/specs.ts'

const listed = [
  { name: 'jev-latest', description: 'The latest Jev', releaseDate: '2026-09-10' },
  { name: 'jev-1.14.0', description: null, releaseDate: null },
  { name: 'jev-1.13.0', description: null, releaseDate: null },
]
const yaml = (name: string, model?: string) =>
  `name: ${name}\n${model ? `model: ${model}\n` : ''}state: [message]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n`
const a = spec(yaml('a'), '/p/a.judge.yaml')
const b = spec(yaml('b', 'jev-latest'), '/p/b.judge.yaml')
const c = spec(yaml('c', 'jev-1.12.0'), '/p/c.judge.yaml')

t.test('each listed model is marked as an alias or not, with the judgments asked with it', async (t) => {
  const report = await engineModels({
    engine: createFakeEngine({ models: listed }),
    defaultModel: 'jev-1.13.0',
    answersAny: false,
    specs: [a, b, c],
  })
  t.same(report.models, [
    { name: 'jev-latest', description: 'The latest Jev', release_date: '2026-09-10', alias: true, used_by: ['b'] },
    { name: 'jev-1.14.0', description: null, release_date: null, alias: false, used_by: [] },
    { name: 'jev-1.13.0', description: null, release_date: null, alias: false, used_by: ['a'] },
  ])
  t.equal(report.default_model, 'jev-1.13.0')
  t.equal(report.lists_builds, true)
  t.same(
    report.unlisted,
    [{ model: 'jev-1.12.0', used_by: ['c'], pinned_by: ['c'] }],
    'a pinned model the engine no longer lists',
  )
})

t.test(
  'without a project the default model is the one checked; an engine answering any model has nothing unlisted',
  async (t) => {
    const engine = createFakeEngine({ models: listed })
    t.same((await engineModels({ engine, defaultModel: 'jev-0.9', answersAny: false, specs: null })).unlisted, [
      { model: 'jev-0.9', used_by: [], pinned_by: [] },
    ])
    t.same((await engineModels({ engine, defaultModel: 'jev-0.9', answersAny: true, specs: [c] })).unlisted, [])
  },
)

t.test(
  "a jury's jurors on this engine are the models it uses, each pinned; a juror on another engine is not",
  async (t) => {
    const jury: typeof a = {
      ...spec(yaml('jury'), '/p/jury.judge.yaml'),
      jurors: [
        { model: 'jev-latest', engine: null },
        { model: 'jev-1.12.0', engine: 'systemone' },
        { model: 'gpt-4o', engine: 'openai' },
        { model: 'jev-latest', engine: 'systemone' },
      ],
    }
    const engine = createFakeEngine({ models: listed })
    const report = await engineModels({
      engine,
      defaultModel: 'jev-1.13.0',
      answersAny: false,
      specs: [jury, a],
      kind: 'systemone',
    })
    t.same(
      report.models.map((m) => [m.name, m.used_by]),
      [
        ['jev-latest', ['jury']],
        ['jev-1.14.0', []],
        ['jev-1.13.0', ['a']],
      ],
      'the default model is not counted for the jury',
    )
    t.same(report.unlisted, [{ model: 'jev-1.12.0', used_by: ['jury'], pinned_by: ['jury'] }])
    const alone = await engineModels({ engine, defaultModel: 'jev-1.13.0', answersAny: false, specs: [jury] })
    t.same(alone.unlisted, [], "without the kind, only jurors naming no engine are this engine's")
  },
)

t.test('a list of aliases alone names no build', async (t) => {
  const aliases = createFakeEngine({
    models: [listed[0], { name: 'jev-preview', description: null, releaseDate: null }],
  })
  t.equal(
    (await engineModels({ engine: aliases, defaultModel: 'jev-1.13.0', answersAny: false, specs: null })).lists_builds,
    false,
  )
})

t.test("an engine that keeps no list is a usage error; a failing list is the engine's error", async (t) => {
  const { models: _, ...bare } = createFakeEngine()
  await t.rejects(engineModels({ engine: bare, defaultModel: 'm', answersAny: false, specs: null }), {
    name: 'UsageError',
    message: /keeps no list of models/,
  })
  const failing = createFakeEngine({ models: new EngineError('engine answered 503: busy', 503) })
  await t.rejects(engineModels({ engine: failing, defaultModel: 'm', answersAny: false, specs: null }), {
    name: 'EngineError',
    message: /busy/,
  })
})
