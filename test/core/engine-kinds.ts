import t from 'tap'
import {
  DEFAULT_ENGINE,
  ENGINE_DEFAULTS,
  ENGINE_KINDS,
  isSimulated,
  SIMULATED_DEFAULT_MODEL,
  SYSTEM_ONE_DEFAULT_MODEL,
  ANTHROPIC_DEFAULT_MODEL,
  ANTHROPIC_DEFAULT_URL,
} from '../../src/core/engine-kinds.ts'

t.test('System One is the default engine, with a pinned Jev build and its published limit and price', async (t) => {
  t.equal(DEFAULT_ENGINE, 'systemone')
  t.same(ENGINE_KINDS, ['systemone', 'simulated', 'openai', 'anthropic'])
  t.same(ENGINE_DEFAULTS.systemone, {
    defaultUrl: 'https://api.typesafe.ai',
    defaultModel: SYSTEM_ONE_DEFAULT_MODEL,
    defaultRpm: 1200,
    defaultPricePerMtok: 0.042,
    needsKey: true,
  })
  t.match(SYSTEM_ONE_DEFAULT_MODEL, /^jev-\d+\.\d+\.\d+$/, 'a pinned build, not an alias')
})

t.test("Anthropic is at its API's root, with a dated snapshot, its first tier's pace and Haiku's price", async (t) => {
  t.same(ENGINE_DEFAULTS.anthropic, {
    defaultUrl: ANTHROPIC_DEFAULT_URL,
    defaultModel: ANTHROPIC_DEFAULT_MODEL,
    defaultRpm: 50,
    defaultPricePerMtok: 1,
    needsKey: true,
  })
  t.equal(ANTHROPIC_DEFAULT_URL, 'https://api.anthropic.com')
  t.match(ANTHROPIC_DEFAULT_MODEL, /-\d{8}$/, 'a dated snapshot, not an alias')
})

t.test('the simulated engine needs no key and keeps its answers under ids of its own', async (t) => {
  t.match(ENGINE_DEFAULTS.simulated, { defaultModel: SIMULATED_DEFAULT_MODEL, needsKey: false, defaultRpm: 0 })
  t.match(SIMULATED_DEFAULT_MODEL, /^simulated-/)
  t.ok(isSimulated(SIMULATED_DEFAULT_MODEL))
  t.ok(isSimulated('simulated-jev-1.13.0'))
  t.notOk(isSimulated(SYSTEM_ONE_DEFAULT_MODEL))
})

t.test("a jury's answers are simulated when every juror's are, and not when one juror's are real", async (t) => {
  t.ok(isSimulated('jury:simulated-a+simulated-b'))
  t.notOk(isSimulated('jury:simulated-a+gpt-4o'))
  t.notOk(isSimulated('jury:gpt-4o+claude-haiku-4-5'))
  t.notOk(isSimulated('jury-simulated-a'), 'a model named like a jury is not one')
})
