import { createCompareMemo } from '../app/compare-memo.ts'
import type { Config } from '../config.ts'
import { storeMarkOf } from '../app/cache.ts'
import { createSpecCache } from '../adapters/files/spec-files.ts'
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.ts'
import { createRuntime, type RuntimeOptions } from '../runtime.ts'
import { serverToken } from './auth.ts'
import { messageCleaner, type Endpoint, type ServerContext } from './context.ts'
import { createGuard } from './guard.ts'
import { createReplyCache } from './reply-cache.ts'
import { createResolvedPaths } from './resolved-paths.ts'
import type { RetentionOptions } from './retention.ts'
import type { Route } from './router.ts'
import { createTasks } from './tasks.ts'
import type { AnsweredBy, Observer } from './ops/observe.ts'
import { observerOf } from './ops/observer-of.ts'

/** Options of createHandler: the runtime's adapters (fakes in tests), the log, the routes. */
export interface HandlerOptions extends RuntimeOptions {
  /** Writes one line to the server log; default standard error. */
  readonly log?: (line: string) => void
  /** The routes answered; default every route of the server. */
  readonly routes?: readonly Route<Endpoint>[]
  /** Told, for each request answered, which part of the server answered it (for tests and metrics). */
  readonly trace?: (by: AnsweredBy) => void
  /** When the server applies retain_days (src/http/retention.ts); tests pass their own timer. */
  readonly retention?: RetentionOptions
  /** Writes one access log line (JUDGE_ACCESS_LOG=json); default standard output. */
  readonly accessLog?: (line: string) => void
}

/** States whose answers a server keeps in memory per store (src/adapters/sqlite/answer-cache.ts). */
export const CACHED_STATES = 10_000

/** What a handler's requests share, its observer always there. */
export type HandlerContext = ServerContext & { readonly observer: Observer }

/**
 * Creates what every request of one handler works with, once for its whole life: one runtime
 * (stores, engine), the guard, the spec cache and the revalidation point, the kept replies, the
 * tasks in flight, the log and the observer. `shutdown` aborts the engine requests still waiting.
 */
export function createServerContext(config: Config, options: HandlerOptions, shutdown: AbortSignal): HandlerContext {
  const observer = observerOf(config, options)
  const runtime = createRuntime(config, {
    openStore: (file, now) => openSqliteStore(file, { batchReads: true, cachedStates: CACHED_STATES, now }),
    watchEngine: observer.watchEngine,
    ...options,
  })
  const token = config.serverToken === null ? null : serverToken(config.serverToken)
  const replies = createReplyCache()
  return {
    config,
    runtime,
    token,
    guard: createGuard({ token, allowedHosts: config.allowedHosts, listenHost: config.host }),
    paths: createResolvedPaths({
      root: config.projects,
      specs: createSpecCache(),
      storeFileFor: runtime.storeFileFor,
      markOf: (project) => storeMarkOf(runtime, project),
      onStale: () => replies.dropStale(),
    }),
    replies,
    comparisons: createCompareMemo(),
    tasks: createTasks(),
    log: options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
    clean: messageCleaner(config),
    now: options.now ?? (() => new Date()),
    shutdown,
    observer,
  }
}
