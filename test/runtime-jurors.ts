import t, { type Test } from 'tap'
import { readConfig } from '../src/config.ts'
import { createRuntime, jurorEngineFor } from '../src/runtime.ts'
import { modelFor } from '../src/core/judge/deps.ts'
import type { Project } from '../src/core/types.ts'
import type { VerdictRecord } from '../src/core/review/verdicts.ts'
import type { Engine } from '../src/ports/engine.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { createMemoryStore } from './helpers/memory-store.ts'
import { juryOfThree } from './helpers/specs.ts'

const at = (dir: string): Project => ({ path: dir, dir, specs: [], selected: [] })

function runtimeOf(env: Record<string, string>, t: Test, files = {}) {
  const dir = t.testdir({})
  const runtime = createRuntime(readConfig(env, dir), {
    engine: createFakeEngine({ defaultModel: 'fake-1' }),
    openStore: () => createMemoryStore(),
    ...files,
  })
  t.teardown(() => runtime.close())
  return { runtime, deps: runtime.depsFor(at(dir)) }
}

t.test('a juror on the configured engine, or naming none, is asked by it at the configured price', async (t) => {
  const { runtime, deps } = runtimeOf({ ENGINE: 'openai', ENGINE_URL: 'http://127.0.0.1:1/v1', ENGINE_MODEL: 'm' }, t)
  const own = deps.jurorEngine!({ model: 'a', engine: null })
  t.equal(own.engine, runtime.engine)
  t.equal(own.pricePerMtok, deps.pricePerMtok)
  t.equal(deps.jurorEngine!({ model: 'a', engine: 'openai' }), own, 'the configured kind named is the same engine')
})

t.test('a juror on another engine gets it from its own settings, created once, with its price and pace', async (t) => {
  const { deps } = runtimeOf(
    { ENGINE_SIMULATED_PRICE_PER_MTOK: '0.5', ENGINE_ANTHROPIC_API_KEY: 'k', ENGINE_ANTHROPIC_PRICE_PER_MTOK: '3' },
    t,
  )
  const simulated = deps.jurorEngine!({ model: 'x', engine: 'simulated' })
  t.equal(simulated.pricePerMtok, 0.5)
  t.equal(simulated.engine?.modelId?.('x'), 'simulated-x', 'the simulated engine answers')
  t.equal(simulated.governor, undefined, 'an engine without a limit is not paced')
  t.equal(deps.jurorEngine!({ model: 'y', engine: 'simulated' }), simulated, 'created once')
  const anthropic = deps.jurorEngine!({ model: 'c', engine: 'anthropic' })
  t.equal(anthropic.pricePerMtok, 3)
  t.ok(anthropic.engine, 'its key is set: it can be asked')
  t.ok(anthropic.governor, 'paced at its service limit, apart from the configured engine')
  t.not(anthropic.governor, deps.governor)
  t.equal(modelFor(juryOfThree(), deps), 'jury:jev-a+gpt-b+claude-c', 'the jury id')
})

t.test('a juror on an engine whose key or URL is unset has none, and says which setting it lacks', async (t) => {
  const { deps } = runtimeOf({}, t)
  t.match(deps.jurorEngine!({ model: 'c', engine: 'anthropic' }), { engine: null, unset: 'ENGINE_ANTHROPIC_API_KEY' })
  t.match(deps.jurorEngine!({ model: 'b', engine: 'openai' }), { engine: null, unset: 'ENGINE_OPENAI_URL' })
  const config = readConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }, '/')
  t.ok(jurorEngineFor(config, 'openai', fetch), "the provider's URL serves")
})

t.test("people's labels are the reviews file's standing verdicts that save one label", async (t) => {
  const verdict = (state_hash: string, labels: string[], reviewed_at: string): VerdictRecord => ({
    reviewed_at,
    reviewer: 'ann',
    judgment: 'trio',
    question: 'is_spam',
    state_hash,
    kind: 'spot_check',
    verdict: 'labeled',
    labels,
    model_label: 'yes',
    key_label: null,
    state: {},
    stratum: null,
    rank: null,
  })
  const verdicts = new Map([
    ['a', verdict('s1', ['no'], '2026-01-01T00:00:00')],
    ['b', verdict('s2', [], '2026-01-01T00:00:00')],
  ])
  const { deps } = runtimeOf({}, t, { files: { verdicts: async () => verdicts } })
  const labels = await deps.reviewedLabels!(juryOfThree())
  t.same([...(labels.get('is_spam') ?? [])], [['s1', 'no']])
})

t.test("a juror's engine is watched as the configured one is, and paced on the runtime's clock", async (t) => {
  const dir = t.testdir({})
  const watched: Engine[] = []
  const runtime = createRuntime(readConfig({ ENGINE_ANTHROPIC_API_KEY: 'k' }, dir), {
    engine: createFakeEngine(),
    openStore: () => createMemoryStore(),
    watchEngine: (engine) => {
      const wrapped = { ...engine }
      watched.push(wrapped)
      return wrapped
    },
    now: () => new Date('2026-11-22T10:00:00.000Z'),
    sleep: async () => {},
  })
  t.teardown(() => runtime.close())
  const asks = runtime.depsFor(at(dir)).jurorEngine!({ model: 'c', engine: 'anthropic' })
  t.equal(asks.engine, watched.at(-1), 'the wrapped engine asks the juror')
  t.equal(asks.governor?.status().rpm, 50, "paced at Anthropic's published limit")
})
