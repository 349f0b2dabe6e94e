import { ENGINE_DEFAULTS, type EngineDefaults, type EngineKind } from '../core/engine-kinds.ts'
import type { Engine } from '../ports/engine.ts'
import { lazy } from '../lazy.ts'

/** What creating an engine takes, from the configuration. */
export interface EngineSettings {
  readonly url: string
  readonly apiKey: string | null
  readonly model: string | null
  readonly timeoutMs: number
  /** ENGINE_MAX_RESPONSE_BYTES; the adapter's default (4 MiB) when absent. */
  readonly maxResponseBytes?: number
  /** ENGINE_SAMPLES: answers per question of a model that gives no probabilities; the adapter's default when absent. */
  readonly samples?: number
  /** ENGINE_SAMPLE_TEMPERATURE: the temperature they are asked at; the adapter's default when absent. */
  readonly sampleTemperature?: number
  readonly fetch?: typeof fetch
}

/** What every HTTP adapter's options take of the settings: the time limit, and the answer cap and fetch when given. */
function transport(s: EngineSettings): { timeoutMs: number; maxResponseBytes?: number; fetch?: typeof fetch } {
  return {
    timeoutMs: s.timeoutMs,
    ...(s.maxResponseBytes ? { maxResponseBytes: s.maxResponseBytes } : {}),
    ...(s.fetch ? { fetch: s.fetch } : {}),
  }
}

/** The sampling settings given, for the chat engines' options. */
function sampling(s: EngineSettings): { samples?: number; sampleTemperature?: number } {
  return {
    ...(s.samples ? { samples: s.samples } : {}),
    ...(s.sampleTemperature ? { sampleTemperature: s.sampleTemperature } : {}),
  }
}

/** One engine of the table (ENGINE=name): its defaults, and how to create it. */
export interface EngineEntry extends EngineDefaults {
  /**
   * Creates the adapter. It tries each request once: pacing, retries and waits are the core's
   * (src/core/pacing), the same for every engine.
   */
  create(settings: EngineSettings): Engine
}

// An adapter's module is loaded when its engine is first created (src/lazy.ts), so that a process
// loads the configured engine's code alone.
const systemOne = lazy<typeof import('./system-one/system-one.ts')>(import.meta.url, './system-one/system-one.ts')
const simulated = lazy<typeof import('./simulated/simulated.ts')>(import.meta.url, './simulated/simulated.ts')
const openAi = lazy<typeof import('./openai/openai.ts')>(import.meta.url, './openai/openai.ts')
const anthropic = lazy<typeof import('./anthropic/anthropic.ts')>(import.meta.url, './anthropic/anthropic.ts')

/**
 * Every engine the product speaks, by the name ENGINE takes (src/core/engine-kinds.ts); a new engine is one entry there
 * and one here.
 */
export const ENGINES: Readonly<Record<EngineKind, EngineEntry>> = {
  systemone: {
    ...ENGINE_DEFAULTS.systemone,
    create: (s) =>
      systemOne().createSystemOne({
        url: s.url,
        apiKey: s.apiKey ?? '',
        ...transport(s),
      }),
  },
  simulated: { ...ENGINE_DEFAULTS.simulated, create: () => simulated().createSimulatedEngine() },
  openai: {
    ...ENGINE_DEFAULTS.openai,
    create: (s) =>
      openAi().createOpenAi({
        url: s.url,
        model: s.model,
        apiKey: s.apiKey,
        ...transport(s),
        ...sampling(s),
      }),
  },
  anthropic: {
    ...ENGINE_DEFAULTS.anthropic,
    create: (s) =>
      anthropic().createAnthropic({
        url: s.url,
        model: s.model ?? ENGINE_DEFAULTS.anthropic.defaultModel,
        apiKey: s.apiKey,
        ...transport(s),
        ...sampling(s),
      }),
  },
}
