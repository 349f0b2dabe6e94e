import { DEFAULT_PRICE_PER_MTOK } from './judge/cost.ts'
import { jurorModelsOf } from './jury/jurors.ts'

/**
 * The model asked when neither a spec nor ENGINE_MODEL names one. A pinned Jev build rather than
 * the moving `jev-latest` alias, so that cached answers stay tied to the model that gave them.
 */
export const SYSTEM_ONE_DEFAULT_MODEL = 'jev-1.13.0'

/** Where TypeSafe serves the System One API. */
export const SYSTEM_ONE_DEFAULT_URL = 'https://api.typesafe.ai'

/** Where Anthropic serves its API (ENGINE=anthropic), without the version its paths begin with. */
export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com'

/** The model ENGINE=anthropic asks when neither a spec nor ENGINE_MODEL names one: a pinned snapshot, not an alias. */
export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5-20251001'

/** The most of one engine answer read by default (ENGINE_MAX_RESPONSE_BYTES): 4 MiB, far above any real answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024

/**
 * How many times a question is asked of a model that gives no probabilities (ENGINE_SAMPLES) by default: its p is the
 * label's share of these answers.
 */
export const DEFAULT_SAMPLES = 5

/**
 * The temperature those answers are asked at by default (ENGINE_SAMPLE_TEMPERATURE): at 1 the model draws from its own
 * probabilities, so that the shares estimate them.
 */
export const DEFAULT_SAMPLE_TEMPERATURE = 1

/** The prefix of every model id the simulated engine answers as. */
export const SIMULATED_PREFIX = 'simulated-'

/** The simulated engine's default model id. */
export const SIMULATED_DEFAULT_MODEL = `${SIMULATED_PREFIX}1`

/**
 * Whether answers of a model are the simulated engine's: a `simulated-…` model id, or a jury's (`jury:<juror>+…`)
 * whose every juror's id is one.
 */
export function isSimulated(model: string): boolean {
  return (jurorModelsOf(model) ?? [model]).every((id) => id.startsWith(SIMULATED_PREFIX))
}

/** What the configuration needs to know of an engine ENGINE may name: its defaults, and nothing that runs. */
export interface EngineDefaults {
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
}

/**
 * Every engine the product speaks, by the name ENGINE takes, with its defaults. The adapters that
 * create them are in src/adapters/engines.ts, keyed alike; reading the configuration loads none.
 */
export const ENGINE_DEFAULTS = {
  systemone: {
    defaultUrl: SYSTEM_ONE_DEFAULT_URL,
    defaultModel: SYSTEM_ONE_DEFAULT_MODEL,
    defaultRpm: 1200,
    defaultPricePerMtok: DEFAULT_PRICE_PER_MTOK,
    needsKey: true,
  },
  // A stand-in answering in-process: no key, no limit, and it counts tokens at Jev's price.
  simulated: {
    defaultUrl: 'local',
    defaultModel: SIMULATED_DEFAULT_MODEL,
    defaultRpm: 0,
    defaultPricePerMtok: DEFAULT_PRICE_PER_MTOK,
    needsKey: false,
  },
  // Local servers (vLLM, llama.cpp, Ollama) have no published limit; set ENGINE_RPM for a hosted API.
  openai: { defaultUrl: null, defaultModel: null, defaultRpm: 0, defaultPricePerMtok: 0, needsKey: false },
  // Anthropic's Messages API: Claude Haiku 4.5 at its price per million input tokens (output tokens are not priced,
  // docs/engine.md), paced at the 50 requests a minute of its first usage tier.
  anthropic: {
    defaultUrl: ANTHROPIC_DEFAULT_URL,
    defaultModel: ANTHROPIC_DEFAULT_MODEL,
    defaultRpm: 50,
    defaultPricePerMtok: 1,
    needsKey: true,
  },
} as const satisfies Readonly<Record<string, EngineDefaults>>

/** A name ENGINE takes. */
export type EngineKind = keyof typeof ENGINE_DEFAULTS

/** Every name ENGINE takes, in the table's order. */
export const ENGINE_KINDS = Object.keys(ENGINE_DEFAULTS) as readonly EngineKind[]

/** The engine when ENGINE is unset. */
export const DEFAULT_ENGINE: EngineKind = 'systemone'
