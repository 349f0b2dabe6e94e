import t from 'tap'
import {
  DEFAULT_ENGINE,
  ENGINE_DEFAULTS,
  ENGINE_KINDS,
  SIMULATED_DEFAULT_MODEL,
  SYSTEM_ONE_DEFAULT_MODEL,
} from '../../src/core/engine-kinds.ts'

t.test('System One is the default engine, with a pinned Jev build and its published limit and price', async (t) => {
  t.equal(DEFAULT_ENGINE, 'systemone')
  t.same(ENGINE_KINDS, ['systemone', 'simulated', 'openai'])
  t.same(ENGINE_DEFAULTS.systemone, {
    defaultUrl: 'https://api.typesafe.ai',
    defaultModel: SYSTEM_ONE_DEFAULT_MODEL,
    defaultRpm: 1200,
    defaultPricePerMtok: 0.042,
    needsKey: true,
  })
  t.match(SYSTEM_ONE_DEFAULT_MODEL, /^jev-\d+\.\d+\.\d+$/, 'a pinned build, not an alias')
})

t.test('the simulated engine needs no key and keeps its answers under ids of its own', async (t) => {
  t.match(ENGINE_DEFAULTS.simulated, { defaultModel: SIMULATED_DEFAULT_MODEL, needsKey: false, defaultRpm: 0 })
  t.match(SIMULATED_DEFAULT_MODEL, /^simulated-/)
})
