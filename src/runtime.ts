import { dirname } from 'node:path'
import { statSync } from 'node:fs'
import type { Config } from './config.ts'
import type { JudgeDeps } from './core/judge/deps.ts'
import { createGovernor, type Governor } from './core/pacing/governor.ts'
import { requestPatience, runPatience } from './core/pacing/patience.ts'
import type { Store } from './ports/store.ts'
import type { Engine } from './ports/engine.ts'
import { ENGINES } from './adapters/engines.ts'
import { openSqliteStore } from './adapters/sqlite/sqlite-store.ts'
import { findStoreFile } from './adapters/sqlite/store-location.ts'
import { SYSTEM_ONE_DEFAULT_MODEL } from './adapters/system-one/system-one.ts'

/** Opens stores by file, once each, for the life of a command or a server. */
export interface Runtime {
  /** The judge dependencies for specs in `specDir`: its store, the engine, the settings. */
  depsFor(specDir: string): JudgeDeps
  /** The store file serving specs in `specDir`. */
  storeFileFor(specDir: string): string
  /** Closes every store opened. */
  close(): void
}

/** Options of createRuntime: the real adapters by default, fakes in tests. */
export interface RuntimeOptions {
  readonly openStore?: (file: string) => Store
  /** An engine to use instead of the configured one; it is paced only when ENGINE_RPM is set. */
  readonly engine?: Engine | null
  readonly fetch?: typeof fetch
  readonly now?: () => Date
  /** The sleep of the pacing and retry waits (tests pass a fake). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/**
 * Creates the runtime for a configuration: one engine, and per store file one store with its own
 * pace and in-flight requests (identical rows ask once per store, and each store gets its answers).
 */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const openStore = options.openStore ?? ((file: string) => openSqliteStore(file, { batchReads: true }))
  const engine = options.engine !== undefined ? options.engine : engineFor(config, options.fetch)
  const stores = new Map<string, JudgeDeps>()
  const storeFileFor = (specDir: string) => findStoreFile(specDir, { JUDGE_STORE: config.store ?? undefined })
  const kind = ENGINES[config.engine.kind]
  return {
    storeFileFor,
    depsFor(specDir) {
      const file = storeFileFor(specDir)
      let deps = stores.get(file)
      if (!deps) {
        const store = openStore(file)
        deps = {
          store,
          engine,
          defaultModel: config.engine.model ?? engine?.defaultModel ?? kind.defaultModel ?? SYSTEM_ONE_DEFAULT_MODEL,
          pricePerMtok: config.engine.pricePerMtok,
          inflight: new Map(),
          governor: governorFor(config, store, options),
          now: options.now ?? (() => new Date()),
        }
        stores.set(file, deps)
      }
      return deps
    },
    close() {
      for (const deps of stores.values()) deps.store.close()
      stores.clear()
    },
  }
}

function governorFor(config: Config, store: Store, options: RuntimeOptions): Governor {
  const { engine } = config
  // An engine passed in code publishes no limit; the configured one paces at its service's.
  const rpm = engine.rpm ?? (options.engine !== undefined ? 0 : ENGINES[engine.kind].defaultRpm)
  return createGovernor({
    store,
    key: `${engine.kind} ${engine.url}`,
    rpm,
    ceilingMs: engine.maxWaitMs,
    patience: { request: requestPatience(engine.timeoutMs), run: runPatience(engine.maxWaitMs, engine.giveUpMs) },
    ...(options.sleep ? { sleep: options.sleep } : {}),
  })
}

function engineFor(config: Config, fetchImpl?: typeof fetch): Engine | null {
  const kind = ENGINES[config.engine.kind]
  if (kind.needsKey && !config.engine.apiKey) return null
  const { url, apiKey, model, timeoutMs } = config.engine
  return kind.create({ url, apiKey, model, timeoutMs, ...(fetchImpl ? { fetch: fetchImpl } : {}) })
}

/** The folder holding a spec path: the path itself for a folder, its parent for a file. */
export function specDirOf(path: string): string {
  return statSync(path).isDirectory() ? path : dirname(path)
}
