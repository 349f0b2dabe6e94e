import { ENGINE_DEFAULTS, type EngineDefaults, type EngineKind } from '../core/engine-kinds.ts'
import type { Engine } from '../ports/engine.ts'
import { createOpenAi } from './openai/openai.ts'
import { createSimulatedEngine } from './simulated/simulated.ts'
import { createSystemOne } from './system-one/system-one.ts'

/** What creating an engine takes, from the configuration. */
export interface EngineSettings {
  readonly url: string
  readonly apiKey: string | null
  readonly model: string | null
  readonly timeoutMs: number
  readonly fetch?: typeof fetch
}

/** One engine of the table (ENGINE=name): its defaults, and how to create it. */
export interface EngineEntry extends EngineDefaults {
  /**
   * Creates the adapter. It tries each request once: pacing, retries and waits are the core's
   * (src/core/pacing), the same for every engine.
   */
  create(settings: EngineSettings): Engine
}

/** Every engine the product speaks, by the name ENGINE takes (src/core/engine-kinds.ts); a new engine is one entry there and one here. */
export const ENGINES: Readonly<Record<EngineKind, EngineEntry>> = {
  systemone: {
    ...ENGINE_DEFAULTS.systemone,
    create: (s) => createSystemOne({ url: s.url, apiKey: s.apiKey ?? '', timeoutMs: s.timeoutMs, ...(s.fetch ? { fetch: s.fetch } : {}) }),
  },
  simulated: { ...ENGINE_DEFAULTS.simulated, create: () => createSimulatedEngine() },
  openai: {
    ...ENGINE_DEFAULTS.openai,
    create: (s) => createOpenAi({ url: s.url, model: s.model!, apiKey: s.apiKey, timeoutMs: s.timeoutMs, ...(s.fetch ? { fetch: s.fetch } : {}) }),
  },
}
