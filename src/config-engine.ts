import { UsageError } from './errors.ts'
import {
  DEFAULT_ENGINE,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_SAMPLE_TEMPERATURE,
  DEFAULT_SAMPLES,
  ENGINE_DEFAULTS,
  ENGINE_KINDS,
  type EngineDefaults,
  type EngineKind,
} from './core/engine-kinds.ts'

/** The environment as the configuration reads it. */
export type Env = Readonly<Record<string, string | undefined>>

/** Which variable gave an engine setting, or null when none did and the default stands. */
export type SettingSource = string | null

/** Engine settings read from the environment. */
export interface EngineConfig {
  /** ENGINE: the name of the engine in src/adapters/engines.ts. */
  readonly kind: EngineKind
  readonly url: string
  /** Null when no key is set: only cached rows can be judged. */
  readonly apiKey: string | null
  /** ENGINE_MODEL, or null for the engine's default (none for ENGINE=openai: only specs naming a model judge). */
  readonly model: string | null
  readonly timeoutMs: number
  readonly pricePerMtok: number
  /**
   * ENGINE_BATCH_PRICE_PER_MTOK: USD per million input tokens through the bulk lane; half of pricePerMtok by default.
   */
  readonly batchPricePerMtok: number
  /** ENGINE_RPM, or null for the engine's published limit (an engine passed in code: no pace). */
  readonly rpm: number | null
  /** ENGINE_MAX_WAIT_S in ms: the longest a run waits when the engine asks it to. */
  readonly maxWaitMs: number
  /** ENGINE_GIVE_UP_S in ms: how long a run rides out an engine failing every request. */
  readonly giveUpMs: number
  /** ENGINE_MAX_RESPONSE_BYTES: the most of one engine answer read; past it the request is stopped and fails. */
  readonly maxResponseBytes: number
  /**
   * ENGINE_SAMPLES, k: how many times a question is asked of a model that gives no probabilities, p being the label's
   * share of the k answers; 1 asks once and takes the text's label at probability 1. A spec's `samples:` overrides it.
   */
  readonly samples: number
  /** ENGINE_SAMPLE_TEMPERATURE: the temperature those k answers are asked at, above 0 and at most 2 (Anthropic: 1). */
  readonly sampleTemperature: number
  /** The variable each of the URL, the key and the model came from (`judge doctor` says which). */
  readonly from: { readonly url: SettingSource; readonly apiKey: SettingSource; readonly model: SettingSource }
}

/**
 * TypeSafe's own SDKs' names for System One's settings: read for `ENGINE=systemone` when the
 * ENGINE_* name of the same setting is unset, so that an environment set up for those SDKs works.
 */
export const TYPESAFE_NAMES = {
  url: 'TYPESAFE_BASE_URL',
  apiKey: 'TYPESAFE_API_KEY',
  model: 'TYPESAFE_DEFAULT_MODEL',
} as const

/** Anthropic's SDKs' name for the key: read for `ENGINE=anthropic` when ENGINE_API_KEY is unset. */
export const ANTHROPIC_KEY = 'ANTHROPIC_API_KEY'

/** A variable's value, trimmed; null when unset or blank. */
export function text(env: Env, name: string): string | null {
  const value = env[name]
  return value === undefined || value.trim() === '' ? null : value.trim()
}

/** A variable's number, checked; `fallback` when unset, a UsageError naming the variable when it does not pass. */
export function number(env: Env, name: string, fallback: number, check: (n: number) => boolean, want: string): number {
  const raw = text(env, name)
  if (raw === null) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || !check(n)) throw new UsageError(`${name} must be ${want}, not "${raw}"`)
  return n
}

/** The first of `names` set, and which it was; a null value and source when none is. */
export function firstSet(env: Env, names: readonly string[]): { value: string | null; from: SettingSource } {
  for (const name of names) {
    const value = text(env, name)
    if (value !== null) return { value, from: name }
  }
  return { value: null, from: null }
}

/** A price in USD per million tokens, 0 or more; `fallback` when unset. */
export function price(env: Env, name: string, fallback: number): number {
  return number(env, name, fallback, (n) => n >= 0, 'a price in USD, 0 or more')
}

/** The engine's settings; a bad value is a UsageError naming the variable. */
export function readEngine(env: Env): EngineConfig {
  const raw = text(env, 'ENGINE')?.toLowerCase() ?? DEFAULT_ENGINE
  const kind = ENGINE_KINDS.find((k) => k === raw)
  if (!kind) throw new UsageError(`ENGINE must be one of ${ENGINE_KINDS.join(', ')}, not "${env.ENGINE}"`)
  const engine: EngineDefaults = ENGINE_DEFAULTS[kind]
  const setting = (own: string, typesafe: string) =>
    firstSet(env, [
      own,
      ...(kind === 'systemone' ? [typesafe] : kind === 'anthropic' && own === 'ENGINE_API_KEY' ? [ANTHROPIC_KEY] : []),
    ])
  const url = setting('ENGINE_URL', TYPESAFE_NAMES.url)
  const apiKey = setting('ENGINE_API_KEY', TYPESAFE_NAMES.apiKey)
  const model = setting('ENGINE_MODEL', TYPESAFE_NAMES.model)
  const root = url.value ?? engine.defaultUrl
  if (root === null) throw new UsageError(`ENGINE=${kind} needs ENGINE_URL, the API root (see docs/engine.md)`)
  // No ENGINE_MODEL for an engine without a default model (openai) is no error here: specs naming their model need
  // none, and one naming no model is refused when judged (modelFor, src/core/judge/deps.ts).
  const seconds = (n: number) => n > 0
  // Anthropic's Messages API takes temperatures up to 1; OpenAI's chat completions up to 2.
  const hottest = kind === 'anthropic' ? 1 : 2
  const pricePerMtok = price(env, 'ENGINE_PRICE_PER_MTOK', engine.defaultPricePerMtok)
  return {
    kind,
    url: root.replace(/\/+$/, ''),
    apiKey: apiKey.value,
    model: model.value,
    timeoutMs: number(
      env,
      'ENGINE_TIMEOUT_MS',
      30000,
      (n) => Number.isInteger(n) && n > 0,
      'a whole number of milliseconds',
    ),
    pricePerMtok,
    batchPricePerMtok: price(env, 'ENGINE_BATCH_PRICE_PER_MTOK', pricePerMtok / 2),
    rpm:
      text(env, 'ENGINE_RPM') === null
        ? null
        : number(env, 'ENGINE_RPM', 0, (n) => n >= 0, 'requests per minute, 0 (no pace) or more'),
    maxWaitMs: 1000 * number(env, 'ENGINE_MAX_WAIT_S', 300, seconds, 'a number of seconds above 0'),
    giveUpMs: 1000 * number(env, 'ENGINE_GIVE_UP_S', 120, seconds, 'a number of seconds above 0'),
    maxResponseBytes: number(
      env,
      'ENGINE_MAX_RESPONSE_BYTES',
      DEFAULT_MAX_RESPONSE_BYTES,
      (n) => Number.isInteger(n) && n >= 1024,
      'a whole number of bytes, at least 1024',
    ),
    samples: number(
      env,
      'ENGINE_SAMPLES',
      DEFAULT_SAMPLES,
      (n) => Number.isInteger(n) && n >= 1,
      'a whole number of answers, 1 or more',
    ),
    sampleTemperature: number(
      env,
      'ENGINE_SAMPLE_TEMPERATURE',
      DEFAULT_SAMPLE_TEMPERATURE,
      (n) => n > 0 && n <= hottest,
      `a temperature above 0 and at most ${hottest}${kind === 'anthropic' ? " (Anthropic's most)" : ''}`,
    ),
    from: { url: url.from, apiKey: apiKey.from, model: model.from },
  }
}
