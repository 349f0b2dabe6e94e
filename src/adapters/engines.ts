import { createRequire } from 'node:module'
import { extname } from 'node:path'
import { ENGINE_DEFAULTS, type EngineDefaults, type EngineKind } from '../core/engine-kinds.ts'
import type { Engine } from '../ports/engine.ts'

/** What creating an engine takes, from the configuration. */
export interface EngineSettings {
  readonly url: string
  readonly apiKey: string | null
  readonly model: string | null
  readonly timeoutMs: number
  /** ENGINE_MAX_RESPONSE_BYTES; the adapter's default (4 MiB) when absent. */
  readonly maxResponseBytes?: number
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

// An adapter's module is loaded when its engine is first created, so that a process loads the
// configured engine's code alone. The load is synchronous (Node 24 requires an ES module as it
// imports one, into the same module cache), as creating an engine is; the extension is this
// file's own, .ts in the source and .js in the built package.
const load = createRequire(import.meta.url)
const EXT = extname(import.meta.filename)
const systemOne = () => load(`./system-one/system-one${EXT}`) as typeof import('./system-one/system-one.ts')
const simulated = () => load(`./simulated/simulated${EXT}`) as typeof import('./simulated/simulated.ts')
const openAi = () => load(`./openai/openai${EXT}`) as typeof import('./openai/openai.ts')

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
        timeoutMs: s.timeoutMs,
        ...(s.maxResponseBytes ? { maxResponseBytes: s.maxResponseBytes } : {}),
        ...(s.fetch ? { fetch: s.fetch } : {}),
      }),
  },
  simulated: { ...ENGINE_DEFAULTS.simulated, create: () => simulated().createSimulatedEngine() },
  openai: {
    ...ENGINE_DEFAULTS.openai,
    create: (s) =>
      openAi().createOpenAi({
        url: s.url,
        model: s.model!,
        apiKey: s.apiKey,
        timeoutMs: s.timeoutMs,
        ...(s.maxResponseBytes ? { maxResponseBytes: s.maxResponseBytes } : {}),
        ...(s.fetch ? { fetch: s.fetch } : {}),
      }),
  },
}
