import { ENGINE_DEFAULTS, ENGINE_KINDS, type EngineKind } from './core/engine-kinds.ts'
import { ANTHROPIC_KEY, firstSet, price, TYPESAFE_NAMES, type Env, type SettingSource } from './config-engine.ts'

/** The settings of an engine a jury's juror names (`engine:` in a spec's `models:`) other than the configured one. */
export interface JurorEngineConfig {
  readonly kind: EngineKind
  /** ENGINE_<KIND>_URL, else the provider's own variable, else the kind's default; null when none is known. */
  readonly url: string | null
  /** ENGINE_<KIND>_API_KEY, else the provider's own variable; null when none is set. */
  readonly apiKey: string | null
  /** ENGINE_<KIND>_PRICE_PER_MTOK: USD per million input tokens, else the kind's default. */
  readonly pricePerMtok: number
  /** The requests per minute the kind's service allows (its default); 0 for no pace. */
  readonly rpm: number
  /** The variable each of the URL and the key came from (null: none, the default stands). */
  readonly from: { readonly url: SettingSource; readonly apiKey: SettingSource }
}

/** Every engine kind's juror settings, read once with the configuration. */
export type JurorEngines = Readonly<Record<EngineKind, JurorEngineConfig>>

/**
 * The provider SDKs' own names for an engine's URL and key, read after ENGINE_<KIND>_URL and ENGINE_<KIND>_API_KEY,
 * so that an environment set up for those SDKs works for a juror too.
 */
export const PROVIDER_NAMES: Readonly<Record<EngineKind, { readonly url: string[]; readonly apiKey: string[] }>> = {
  systemone: { url: [TYPESAFE_NAMES.url], apiKey: [TYPESAFE_NAMES.apiKey] },
  simulated: { url: [], apiKey: [] },
  openai: { url: ['OPENAI_BASE_URL'], apiKey: ['OPENAI_API_KEY'] },
  anthropic: { url: ['ANTHROPIC_BASE_URL'], apiKey: [ANTHROPIC_KEY] },
}

/** The variable of one setting of an engine kind for jurors: `ENGINE_ANTHROPIC_API_KEY`. */
export function jurorVariable(kind: EngineKind, setting: 'URL' | 'API_KEY' | 'PRICE_PER_MTOK'): string {
  return `ENGINE_${kind.toUpperCase()}_${setting}`
}

/** Reads every engine kind's juror settings; a bad price is a UsageError naming its variable. */
export function readJurorEngines(env: Env): JurorEngines {
  return Object.fromEntries(ENGINE_KINDS.map((kind) => [kind, readJurorEngine(env, kind)])) as Record<
    EngineKind,
    JurorEngineConfig
  >
}

/** One engine kind's juror settings: its own ENGINE_<KIND>_* variables, the provider's, then the kind's defaults. */
export function readJurorEngine(env: Env, kind: EngineKind): JurorEngineConfig {
  const defaults = ENGINE_DEFAULTS[kind]
  const url = firstSet(env, [jurorVariable(kind, 'URL'), ...PROVIDER_NAMES[kind].url])
  const apiKey = firstSet(env, [jurorVariable(kind, 'API_KEY'), ...PROVIDER_NAMES[kind].apiKey])
  const root = url.value ?? defaults.defaultUrl
  return {
    kind,
    url: root === null ? null : root.replace(/\/+$/, ''),
    apiKey: apiKey.value,
    pricePerMtok: price(env, jurorVariable(kind, 'PRICE_PER_MTOK'), defaults.defaultPricePerMtok),
    rpm: defaults.defaultRpm,
    from: { url: url.from, apiKey: apiKey.from },
  }
}
