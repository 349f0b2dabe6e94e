import { dirname } from 'node:path'
import { statSync } from 'node:fs'
import type { Config } from './config.ts'
import type { JudgeDeps } from './core/judge/deps.ts'
import type { Store } from './ports/store.ts'
import type { Engine } from './ports/engine.ts'
import { openSqliteStore } from './adapters/sqlite/sqlite-store.ts'
import { findStoreFile } from './adapters/sqlite/store-location.ts'
import { createSystemOne, SYSTEM_ONE_DEFAULT_MODEL } from './adapters/system-one/system-one.ts'
import { createSimulatedEngine } from './adapters/simulated/simulated.ts'

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
  readonly engine?: Engine | null
  readonly fetch?: typeof fetch
  readonly now?: () => Date
}

/** Creates the runtime for a configuration: one store per store file, one engine, shared in-flight requests. */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const openStore = options.openStore ?? ((file: string) => openSqliteStore(file, { batchReads: true }))
  const engine = options.engine !== undefined ? options.engine : engineFor(config, options.fetch)
  const stores = new Map<string, JudgeDeps>()
  const inflight = new Map()
  const storeFileFor = (specDir: string) => findStoreFile(specDir, { JUDGE_STORE: config.store ?? undefined })
  return {
    storeFileFor,
    depsFor(specDir) {
      const file = storeFileFor(specDir)
      let deps = stores.get(file)
      if (!deps) {
        deps = {
          store: openStore(file),
          engine,
          defaultModel: config.engine.model ?? engine?.defaultModel ?? SYSTEM_ONE_DEFAULT_MODEL,
          pricePerMtok: config.engine.pricePerMtok,
          inflight,
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

/** The engine ENGINE selects; null for System One without a key, which can give cached answers only. */
export function engineFor(config: Config, fetchImpl?: typeof fetch): Engine | null {
  if (config.engine.kind === 'simulated') return createSimulatedEngine()
  if (!config.engine.apiKey) return null
  return createSystemOne({
    url: config.engine.url,
    apiKey: config.engine.apiKey,
    timeoutMs: config.engine.timeoutMs,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
}

/** The folder holding a spec path: the path itself for a folder, its parent for a file. */
export function specDirOf(path: string): string {
  return statSync(path).isDirectory() ? path : dirname(path)
}
