import { existsSync } from 'node:fs'
import type { App } from './app/app.ts'
import { createKeyedLock } from './app/keyed-lock.ts'
import type { Config } from './config.ts'
import type { JudgeDeps } from './core/judge/deps.ts'
import type { Project } from './core/types.ts'
import type { Engine } from './ports/engine.ts'
import type { Files } from './ports/files.ts'
import type { Store } from './ports/store.ts'
import { createLocalFiles } from './adapters/files/local-files.ts'
import { openSqliteStore } from './adapters/sqlite/sqlite-store.ts'
import { findStoreFile } from './adapters/sqlite/store-location.ts'
import { createSystemOne, SYSTEM_ONE_DEFAULT_MODEL } from './adapters/system-one/system-one.ts'
import { createSimulatedEngine } from './adapters/simulated/simulated.ts'

/** The app of a command, a server or a library call: stores opened once per file, for its whole life. */
export interface Runtime extends App {
  /** The store file serving specs in `dir`. */
  storeFileFor(dir: string): string
  /** Closes every store opened. */
  close(): void
}

/** Options of createRuntime: the real adapters by default, fakes in tests. */
export interface RuntimeOptions {
  readonly openStore?: (file: string) => Store
  readonly engine?: Engine | null
  readonly fetch?: typeof fetch
  readonly files?: Files
  readonly now?: () => Date
}

/**
 * Creates the runtime for a configuration: one store per store file, one engine. Requests in
 * flight are kept per store, so that identical rows ask once per store and each store gets its
 * answers.
 */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const openStore = options.openStore ?? ((file: string) => openSqliteStore(file, { batchReads: true }))
  const engine = options.engine !== undefined ? options.engine : engineFor(config, options.fetch)
  const now = options.now ?? (() => new Date())
  const stores = new Map<string, JudgeDeps>()
  // A loaded project's store is looked up once: a server loads a path's project again when it
  // revalidates the path (src/http/resolved-paths.ts), and so looks the store up again then.
  let known = new WeakMap<Project, JudgeDeps>()
  const storeFileFor = (dir: string) => findStoreFile(dir, { JUDGE_STORE: config.store ?? undefined })
  const depsFor = (project: Project): JudgeDeps => {
    const seen = known.get(project)
    if (seen) return seen
    const file = storeFileFor(project.dir)
    let deps = stores.get(file)
    if (!deps) {
      const defaultModel = config.engine.model ?? engine?.defaultModel ?? SYSTEM_ONE_DEFAULT_MODEL
      deps = { store: openStore(file), engine, defaultModel, pricePerMtok: config.engine.pricePerMtok, inflight: new Map(), now }
      stores.set(file, deps)
    }
    known.set(project, deps)
    return deps
  }
  const existingStore = (project: Project): Store | null => {
    const seen = known.get(project)
    if (seen) return seen.store
    const file = storeFileFor(project.dir)
    return stores.has(file) || existsSync(file) ? depsFor(project).store : null
  }
  return {
    depsFor,
    storeFileFor,
    existingStore,
    files: options.files ?? createLocalFiles(),
    locks: createKeyedLock(),
    now,
    close() {
      for (const deps of stores.values()) deps.store.close()
      stores.clear()
      known = new WeakMap()
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
