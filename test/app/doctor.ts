import t from 'tap'
import { doctor, type DoctorInput, type EngineSettings } from '../../src/app/doctor.ts'
import { EngineError, SpecError } from '../../src/errors.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { JURY_OF_THREE_YAML, project, SPAM_YAML, spec } from '../helpers/specs.ts'

const settings: EngineSettings = {
  kind: 'systemone',
  url: 'https://api.typesafe.ai',
  from: { url: null, apiKey: 'TYPESAFE_API_KEY', model: null },
  needsKey: true,
  hasKey: true,
  rpm: 1200,
  rpmSet: false,
  pricePerMtok: 0.042,
  maxCost: 1,
}
const models = [
  { name: 'jev-latest', description: null, releaseDate: null },
  { name: 'jev-1.13.0', description: null, releaseDate: null },
]

function input(over: Partial<DoctorInput> = {}): DoctorInput {
  return {
    nodeVersion: '24.21.0',
    settings,
    engine: createFakeEngine({ models }),
    defaultModel: 'jev-1.13.0',
    project: project(spec()),
    store: { file: '/p/.judge/store.sqlite', problem: null },
    ...over,
  }
}

const status = async (over: Partial<DoctorInput>) =>
  Object.fromEntries((await doctor(input(over))).checks.map((c) => [c.check, c.status]))

t.test('a healthy setup: every check ok or informative, and the rate and price in force stated', async (t) => {
  const report = await doctor(input())
  t.equal(report.healthy, true)
  t.same(
    report.checks.map((c) => [c.check, c.status]),
    [
      ['node', 'ok'],
      ['spec', 'ok'],
      ['store', 'ok'],
      ['engine', 'info'],
      ['key', 'ok'],
      ['host', 'ok'],
      ['model', 'ok'],
      ['rate', 'info'],
      ['price', 'info'],
    ],
  )
  const text = report.checks.map((c) => c.message).join('\n')
  t.match(text, /a key is set in TYPESAFE_API_KEY \(not shown\)/)
  t.match(
    text,
    /engine systemone at https:\/\/api.typesafe.ai \(the default URL\); default model jev-1.13.0 \(the engine's default\)/,
  )
  t.match(text, /model jev-1.13.0, asked by spam, is listed/)
  t.match(text, /1200 requests a minute \(the default for systemone; ENGINE_RPM changes it\)/)
  t.match(text, /\$0.042 per million input tokens; a command spends at most \$1.00 per judgment \(JUDGE_MAX_COST\)/)
})

t.test(
  'an old Node, a spec that does not load and a store that cannot be written are problems with a fix',
  async (t) => {
    const report = await doctor(
      input({
        nodeVersion: '20.11.0',
        project: new SpecError('/p/spam.judge.yaml', 'questions', 'is missing'),
        store: null,
      }),
    )
    t.equal(report.healthy, false)
    t.match(
      report.checks.find((c) => c.check === 'node'),
      { status: 'problem', message: /Node 20.11.0: judge needs Node 24 or newer/, fix: /Node 24/ },
    )
    t.match(
      report.checks.find((c) => c.check === 'spec'),
      { status: 'problem', message: /the spec does not load: .*questions/ },
    )
    t.match(await status({ store: { file: '/ro/store.sqlite', problem: '/ro is not writable (EACCES)' } }), {
      store: 'problem',
    })
    t.match(await status({ project: null, store: null }), { spec: 'skip' }, 'no spec named: only the engine is checked')
  },
)

t.test('no key: a problem, and the host is not asked', async (t) => {
  const report = await doctor(
    input({ engine: null, settings: { ...settings, hasKey: false, from: { ...settings.from, apiKey: null } } }),
  )
  t.match(
    report.checks.find((c) => c.check === 'key'),
    { status: 'problem', message: /ENGINE_API_KEY and TYPESAFE_API_KEY are unset/, fix: /set ENGINE_API_KEY/ },
  )
  t.match(
    report.checks.find((c) => c.check === 'host'),
    { status: 'skip' },
  )
  t.equal(report.healthy, false)
  t.match(
    await status({ engine: null, settings: { ...settings, kind: 'openai', needsKey: false, hasKey: false } }),
    { key: 'info' },
    'an engine that needs no key',
  )
})

t.test(
  'the host: unreachable, refusing the key and listing nothing say so; the simulated engine has none',
  async (t) => {
    const failing = (error: Error) => input({ engine: createFakeEngine({ models: error }) })
    const unreachable = await doctor(
      failing(
        new EngineError('could not reach the engine at http://x/v1/models: ECONNREFUSED', null, { transient: true }),
      ),
    )
    t.match(
      unreachable.checks.find((c) => c.check === 'host'),
      { status: 'problem', message: /cannot be reached: could not reach/, fix: /ENGINE_URL/ },
    )
    const refused = await doctor(failing(new EngineError('engine answered 401: bad key', 401)))
    t.match(
      refused.checks.find((c) => c.check === 'host'),
      { status: 'problem', message: /refused the key/, fix: /check the key in TYPESAFE_API_KEY/ },
    )
    const missing = await doctor(failing(new EngineError('engine answered 404: Not Found', 404)))
    t.match(
      missing.checks.find((c) => c.check === 'host'),
      { status: 'warn', message: /lists no models/ },
    )
    t.equal(missing.healthy, true, 'a host that cannot list is a warning: runs may still work')
    const garbled = await doctor(
      failing(new EngineError("the engine's answer is unusable: the body is not JSON", null)),
    )
    t.match(
      garbled.checks.find((c) => c.check === 'host'),
      { status: 'problem', message: /did not list its models/ },
    )
    t.match(await status({ settings: { ...settings, kind: 'simulated', needsKey: false } }), { host: 'ok' })
  },
)

t.test('an unknown model is a problem naming the judgment and how to fix it; an alias is a warning', async (t) => {
  const pinned = spec(
    'name: old\nmodel: jev-1.12.0\nstate: [m]\nquestions:\n  q:\n    ask: Q?\n    type: yes_no\n',
    '/p/old.judge.yaml',
  )
  const report = await doctor(input({ project: project(pinned) }))
  t.match(
    report.checks.find((c) => c.check === 'model'),
    {
      status: 'problem',
      message: 'model jev-1.12.0, asked by old, is not listed by the engine (it lists jev-latest, jev-1.13.0)',
      fix: /set model: in the spec of old/,
    },
  )
  const unpinned = await doctor(input({ defaultModel: 'jev-0.9', project: null }))
  t.match(
    unpinned.checks.find((c) => c.check === 'model'),
    { status: 'problem', message: /model jev-0.9, the default, is not listed/, fix: /set ENGINE_MODEL/ },
  )
  const aliasesOnly = await doctor(
    input({
      engine: createFakeEngine({ models: [models[0], { name: 'jev-preview', description: null, releaseDate: null }] }),
    }),
  )
  t.match(
    aliasesOnly.checks.find((c) => c.check === 'model'),
    {
      status: 'warn',
      message:
        'model jev-1.13.0, asked by spam, cannot be checked: the engine lists only aliases (jev-latest, jev-preview)',
      fix: /watch the model each run reports/,
    },
  )
  t.equal(aliasesOnly.healthy, true, 'a list of aliases alone cannot rule a build out')
  const alias = await doctor(input({ defaultModel: 'jev-latest' }))
  t.match(
    alias.checks.find((c) => c.check === 'model'),
    { status: 'warn', message: /jev-latest, asked by spam, is an alias/ },
  )
  t.equal(alias.healthy, true)
})

t.test('a pace set by ENGINE_RPM, or none, is said so', async (t) => {
  const rate = async (over: Partial<EngineSettings>) =>
    (await doctor(input({ settings: { ...settings, ...over } }))).checks.find((c) => c.check === 'rate')!.message
  t.equal(await rate({ rpm: 600, rpmSet: true }), '600 requests a minute (ENGINE_RPM)')
  t.match(await rate({ rpm: 0, kind: 'openai' }), /^no pace \(the default for openai/)
})

t.test('without a default model (ENGINE=openai, no ENGINE_MODEL) the doctor says what that means', async (t) => {
  const openai: EngineSettings = { ...settings, kind: 'openai', url: 'http://127.0.0.1:8000/v1', needsKey: false }
  const named = spec(`model: jev-1.13.0\n${SPAM_YAML}`)
  const bare = await doctor(input({ settings: openai, defaultModel: null, project: null }))
  t.equal(bare.healthy, true, 'no spec named: nothing is refused yet')
  t.match(bare.checks.find((c) => c.check === 'engine')?.message, /no default model \(ENGINE_MODEL is unset\)/)
  t.match(
    bare.checks.find((c) => c.check === 'model'),
    {
      status: 'warn',
      message: /ENGINE_MODEL is unset and ENGINE=openai has no default model: only specs that name their model/,
      fix: /set ENGINE_MODEL/,
    },
  )
  // The host is not asked here: the jury's models are not the fake engine's.
  const pinned = await doctor(
    input({ settings: openai, engine: null, defaultModel: null, project: project(named, juryOf()) }),
  )
  t.equal(pinned.healthy, true, 'every spec names its model (or its jurors)')
  t.match(
    pinned.checks.find((c) => c.check === 'model' && c.message.includes('ENGINE_MODEL')),
    {
      status: 'ok',
      message: /every spec checked names its model, so none is needed/,
    },
  )
  const unnamed = await doctor(input({ settings: openai, defaultModel: null, project: project(spec(), named) }))
  t.equal(unnamed.healthy, false)
  t.match(
    unnamed.checks.find((c) => c.check === 'model' && c.message.includes('ENGINE_MODEL')),
    {
      status: 'problem',
      message: /and no model is named by spam: judging there is refused/,
      fix: /set ENGINE_MODEL to the model the server serves/,
    },
  )
  t.same(
    (await doctor(input())).checks.filter((c) => c.message.includes('ENGINE_MODEL is unset')),
    [],
  )
})

/** A jury spec naming no `model:` (its jurors name theirs). */
function juryOf() {
  return spec(JURY_OF_THREE_YAML, '/specs/trio.judge.yaml')
}
