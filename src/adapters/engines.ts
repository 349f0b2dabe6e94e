import { DEFAULT_PRICE_PER_MTOK } from '../core/judge/cost.ts'
import type { Engine } from '../ports/engine.ts'
import { createOpenAi } from './openai/openai.ts'
import { createSimulatedEngine, SIMULATED_DEFAULT_MODEL } from './simulated/simulated.ts'
import { createSystemOne, SYSTEM_ONE_DEFAULT_MODEL, SYSTEM_ONE_DEFAULT_URL } from './system-one/system-one.ts'

/** What creating an engine takes, from the configuration. */
export interface EngineSettings {
  readonly url: string
  readonly apiKey: string | null
  readonly model: string | null
  readonly timeoutMs: number
  readonly fetch?: typeof fetch
}

/** One engine of the table (ENGINE=name): its defaults, and how to create it. */
export interface EngineEntry {
  /** ENGINE_URL when unset; null when it must be given. */
  readonly defaultUrl: string | null
  /** The model when neither a spec nor ENGINE_MODEL names one; null when ENGINE_MODEL must be given. */
  readonly defaultModel: string | null
  /** ENGINE_RPM when unset: the requests per minute the service allows; 0 for no pace. */
  readonly defaultRpm: number
  /** ENGINE_PRICE_PER_MTOK when unset: USD per million input tokens. */
  readonly defaultPricePerMtok: number
  /** Whether asking needs ENGINE_API_KEY; without it only the store's answers are given. */
  readonly needsKey: boolean
  /**
   * Creates the adapter. It tries each request once: pacing, retries and waits are the core's
   * (src/core/pacing), the same for every engine.
   */
  create(settings: EngineSettings): Engine
}

/** Every engine the product speaks, by the name ENGINE takes; a new engine is one entry here. */
export const ENGINES = {
  systemone: {
    defaultUrl: SYSTEM_ONE_DEFAULT_URL,
    defaultModel: SYSTEM_ONE_DEFAULT_MODEL,
    defaultRpm: 1200,
    defaultPricePerMtok: DEFAULT_PRICE_PER_MTOK,
    needsKey: true,
    create: (s: EngineSettings) => createSystemOne({ url: s.url, apiKey: s.apiKey ?? '', timeoutMs: s.timeoutMs, ...(s.fetch ? { fetch: s.fetch } : {}) }),
  },
  // A stand-in answering in-process: no key, no limit, and it counts tokens at Jev's price.
  simulated: {
    defaultUrl: 'local',
    defaultModel: SIMULATED_DEFAULT_MODEL,
    defaultRpm: 0,
    defaultPricePerMtok: DEFAULT_PRICE_PER_MTOK,
    needsKey: false,
    create: () => createSimulatedEngine(),
  },
  openai: {
    defaultUrl: null,
    defaultModel: null,
    // Local servers (vLLM, llama.cpp, Ollama) have no published limit; set ENGINE_RPM for a hosted API.
    defaultRpm: 0,
    defaultPricePerMtok: 0,
    needsKey: false,
    create: (s: EngineSettings) => createOpenAi({ url: s.url, model: s.model!, apiKey: s.apiKey, timeoutMs: s.timeoutMs, ...(s.fetch ? { fetch: s.fetch } : {}) }),
  },
} as const satisfies Readonly<Record<string, EngineEntry>>

/** The engine when ENGINE is unset. */
export const DEFAULT_ENGINE: keyof typeof ENGINES = 'systemone'
