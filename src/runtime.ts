import { existsSync } from 'node:fs'
import type { App, DepsWith } from './app/app.ts'
import { createKeyedLock } from './app/keyed-lock.ts'
import type { Config } from './config.ts'
import { jurorVariable } from './config-jurors.ts'
import type { JurorEngine } from './core/judge/deps.ts'
import type { EngineKind } from './core/engine-kinds.ts'
import type { Juror } from './core/types.ts'
import type { Governor } from './core/pacing/governor.ts'
import type { Project } from './core/types.ts'
import type { Engine } from './ports/engine.ts'
import type { FileLock } from './ports/file-lock.ts'
import type { Files } from './ports/files.ts'
import type { PaceStore } from './ports/pace-store.ts'
import type { Store } from './ports/store.ts'
import { ENGINES, type EngineEntry } from './adapters/engines.ts'
import { createLocalFiles } from './adapters/files/local-files.ts'
import { openSqliteStore } from './adapters/sqlite/sqlite-store.ts'
import { findStoreFile } from './adapters/sqlite/store-location.ts'
import { lazy } from './lazy.ts'

/** The app of a command, a server or a library call: stores opened once per file, for its whole life. */
export interface Runtime extends App {
  /** The engine the configuration selects (or the one passed in); null when it needs a key that is unset. */
  readonly engine: Engine | null
  /**
   * The model asked when a spec names none: ENGINE_MODEL, else the engine's default; null when neither names one
   * (ENGINE=openai without ENGINE_MODEL), and then a spec naming no model is refused (modelFor).
   */
  readonly defaultModel: string | null
  /** The store file serving specs in `dir`. */
  storeFileFor(dir: string): string
  /** Closes every store opened. */
  close(): void
}

/** Options of createRuntime: the real adapters by default, fakes in tests. */
export interface RuntimeOptions {
  /** Opens a store file; `now` is the runtime's clock, which its review holds end by. */
  readonly openStore?: (file: string, now: () => number) => Store
  /** An engine to use instead of the configured one; it is paced only when ENGINE_RPM is set. */
  readonly engine?: Engine | null
  readonly fetch?: typeof fetch
  readonly files?: Files
  /** The lock shared with other processes (default: SQLite's, beside each file locked). */
  readonly fileLocks?: FileLock
  readonly now?: () => Date
  /** The sleep of the pacing and retry waits (tests pass a fake). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /**
   * Wraps the engine, configured or passed in, as it is used (the server counts its requests); paced as the engine it
   * wraps.
   */
  readonly watchEngine?: (engine: Engine) => Engine
}

/**
 * Creates the runtime for a configuration: one engine, and per store file one store with its own
 * pace and requests in flight, so that identical rows ask once per store and each store gets its
 * answers.
 */
export function createRuntime(config: Config, options: RuntimeOptions = {}): Runtime {
  const openStore =
    options.openStore ?? ((file: string, now: () => number) => openSqliteStore(file, { batchReads: true, now }))
  const chosen = options.engine !== undefined ? options.engine : engineFor(config, options.fetch)
  const engine = chosen && options.watchEngine ? options.watchEngine(chosen) : chosen
  const now = options.now ?? (() => new Date())
  const clock = () => now().getTime()
  const files = options.files ?? createLocalFiles()
  const jurorEngines = jurorEnginesOf(config, options)
  const stores = new Map<string, DepsWith<Store>>()
  // A loaded project's store is looked up once: a server loads a path's project again when it
  // revalidates the path (src/http/resolved-paths.ts), and so looks the store up again then.
  let known = new WeakMap<Project, DepsWith<Store>>()
  const storeFileFor = (dir: string) => findStoreFile(dir, { JUDGE_STORE: config.store ?? undefined })
  // An engine passed in code names its own default; the configured one the table's, none for ENGINE=openai.
  const defaultModel =
    config.engine.model ?? (options.engine ? options.engine.defaultModel : ENGINES[config.engine.kind].defaultModel)
  const depsFor = (project: Project): DepsWith<Store> => {
    const seen = known.get(project)
    if (seen) return seen
    const file = storeFileFor(project.dir)
    let deps = stores.get(file)
    if (!deps) {
      const store = openStore(file, clock)
      const governor = governorFor(config, store, options)
      const own: JurorEngine = { engine, pricePerMtok: config.engine.pricePerMtok, ...(governor ? { governor } : {}) }
      deps = {
        store,
        engine,
        defaultModel,
        pricePerMtok: config.engine.pricePerMtok,
        ...(options.engine === undefined ? { engineName: config.engine.kind } : {}),
        inflight: new Map(),
        governor,
        now,
        jurorEngine: jurorEngines(store, own),
        askJury: (job, lookup) => juryAsking().askJury(job, lookup),
        reviewedLabels: async (spec) => juryFits().reviewedLabelsOf(spec.name, (await files.verdicts(spec)).values()),
      }
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
    engine,
    defaultModel,
    depsFor,
    storeFileFor,
    existingStore,
    files,
    locks: createKeyedLock(),
    fileLocks: options.fileLocks ?? sqliteFileLock(),
    now,
    close() {
      for (const deps of stores.values()) deps.store.close()
      stores.clear()
      known = new WeakMap()
    },
  }
}

// The pacing code loads with the first store of an engine that needs it (docs/architecture.md).
const governors = lazy<typeof import('./core/pacing/governor.ts')>(import.meta.url, './core/pacing/governor.ts')
const patience = lazy<typeof import('./core/pacing/patience.ts')>(import.meta.url, './core/pacing/patience.ts')

/**
 * The governor of a store's engine requests: its pace, retries and waits. None for the simulated
 * engine without ENGINE_RPM: it answers in the process, never refuses and never fails, so there is
 * nothing to pace, retry or wait for.
 */
function governorFor(config: Config, store: PaceStore, options: RuntimeOptions): Governor | undefined {
  const { engine } = config
  if (options.engine === undefined && engine.kind === 'simulated' && !engine.rpm) return undefined
  // An engine passed in code publishes no limit; the configured one paces at its service's.
  const rpm = engine.rpm ?? (options.engine !== undefined ? 0 : ENGINES[engine.kind].defaultRpm)
  return pacedBy(config, store, options, `${engine.kind} ${engine.url}`, rpm)
}

/** A governor of requests through one store under a pace key, at `rpm`, with the engine's waits and patience. */
function pacedBy(config: Config, store: PaceStore, options: RuntimeOptions, key: string, rpm: number): Governor {
  const { engine } = config
  const { createGovernor } = governors()
  const { requestPatience, runPatience } = patience()
  return createGovernor({
    store,
    key,
    rpm,
    ceilingMs: engine.maxWaitMs,
    patience: { request: requestPatience(engine.timeoutMs), run: runPatience(engine.maxWaitMs, engine.giveUpMs) },
    ...(options.sleep ? { sleep: options.sleep } : {}),
    // The pace and the waits keep the runtime's clock, so that a test's clock and sleep agree.
    ...(options.now ? { now: () => options.now!().getTime() } : {}),
  })
}

// A jury's asking and its fit load with the first jury judged: one model's judging loads none of it
// (docs/architecture.md).
const juryAsking = lazy<typeof import('./core/judge/ask-jury.ts')>(import.meta.url, './core/judge/ask-jury.ts')
const juryFits = lazy<typeof import('./core/jury/jury-fits.ts')>(import.meta.url, './core/jury/jury-fits.ts')

/**
 * What asks a jury's jurors, per store: a juror naming no engine, or the configured one, is asked by the configured
 * engine (`own`); one naming another kind by that kind's engine, created once per process from its own settings
 * (ENGINE_<KIND>_*, src/config-jurors.ts) when first needed, and paced per store by a governor of its own.
 */
function jurorEnginesOf(config: Config, options: RuntimeOptions) {
  const engines = new Map<EngineKind, Engine | null>()
  const engineOf = (kind: EngineKind): Engine | null => {
    if (!engines.has(kind)) {
      const created = jurorEngineFor(config, kind, options.fetch)
      engines.set(kind, created && options.watchEngine ? options.watchEngine(created) : created)
    }
    return engines.get(kind)!
  }
  const unset = (kind: EngineKind) => jurorVariable(kind, config.jurors[kind].url === null ? 'URL' : 'API_KEY')
  return (store: PaceStore, own: JurorEngine) => {
    const paced = new Map<EngineKind, JurorEngine>()
    return (juror: Juror): JurorEngine => {
      const kind = juror.engine as EngineKind | null
      if (kind === null || kind === config.engine.kind) return own
      let asks = paced.get(kind)
      if (!asks) {
        const settings = config.jurors[kind]
        const governor = settings.rpm > 0 ? jurorGovernor(config, kind, store, options) : undefined
        const engine = engineOf(kind)
        asks = {
          engine,
          pricePerMtok: settings.pricePerMtok,
          ...(governor ? { governor } : {}),
          ...(engine ? {} : { unset: unset(kind) }),
        }
        paced.set(kind, asks)
      }
      return asks
    }
  }
}

/**
 * The engine of a kind a juror names, from its own settings; null when it needs a key or a URL that is unset (only
 * the store's answers of that juror can then be given).
 */
export function jurorEngineFor(config: Config, kind: EngineKind, fetchImpl?: typeof fetch): Engine | null {
  const entry: EngineEntry = ENGINES[kind]
  const settings = config.jurors[kind]
  if ((entry.needsKey && !settings.apiKey) || settings.url === null) return null
  const { timeoutMs, maxResponseBytes, samples, sampleTemperature } = config.engine
  return entry.create({
    url: settings.url,
    apiKey: settings.apiKey,
    model: entry.defaultModel ?? '',
    timeoutMs,
    maxResponseBytes,
    samples,
    sampleTemperature,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
}

/** The governor of a juror kind's requests through one store: its own pace key (kind and URL) and the kind's limit. */
function jurorGovernor(config: Config, kind: EngineKind, store: PaceStore, options: RuntimeOptions): Governor {
  const { url, rpm } = config.jurors[kind]
  return pacedBy(config, store, options, `${kind} ${url}`, rpm)
}

const fileLocks = lazy<typeof import('./adapters/sqlite/sqlite-file-lock.ts')>(
  import.meta.url,
  './adapters/sqlite/sqlite-file-lock.ts',
)

/** SQLite's lock across processes, its code loaded when a first file is locked (a review, a forget), not before. */
function sqliteFileLock(): FileLock {
  let lock: FileLock | null = null
  return { hold: async (file, work) => (lock ??= fileLocks().createSqliteFileLock()).hold(file, work) }
}

/** The engine ENGINE selects; null for one that needs a key without it, which can give cached answers only. */
export function engineFor(config: Config, fetchImpl?: typeof fetch): Engine | null {
  const kind: EngineEntry = ENGINES[config.engine.kind]
  if (kind.needsKey && !config.engine.apiKey) return null
  const { url, apiKey, model, timeoutMs, maxResponseBytes, samples, sampleTemperature } = config.engine
  const settings = { url, apiKey, model, timeoutMs, maxResponseBytes, samples, sampleTemperature }
  return kind.create({ ...settings, ...(fetchImpl ? { fetch: fetchImpl } : {}) })
}
