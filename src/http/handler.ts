import { createCompareMemo } from '../app/compare-memo.ts'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Config } from '../config.ts'
import { answersEpochOf } from '../app/cache.ts'
import { createSpecCache } from '../adapters/files/spec-files.ts'
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.ts'
import { ShuttingDownError } from '../errors.ts'
import { createRuntime, type RuntimeOptions } from '../runtime.ts'
import { serverToken } from './auth.ts'
import { messageCleaner, type Endpoint, type ServerContext } from './context.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { createFastPath, type FastPath } from './fast-path.ts'
import { failure, serveFull } from './full-path.ts'
import { createGuard, type Admission } from './guard.ts'
import { errorReply } from './reply.ts'
import { createReplyCache } from './reply-cache.ts'
import { createResolvedPaths } from './resolved-paths.ts'
import { startRetention, type RetentionOptions } from './retention.ts'
import { createRouter, type Route, type Router } from './router.ts'
import { isApiPath, ROUTES } from './routes.ts'
import { send } from './send.ts'
import { createTasks } from './tasks.ts'
import { identify, idOf } from './ops/request-id.ts'
import { observerOf } from './ops/observer-of.ts'

import type { AnsweredBy } from './ops/observe.ts'
export type { AnsweredBy }

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

/** The server as a node:http request listener, with a way to wait for its work and to close it. */
export interface JudgeHandler {
  /**
   * Answers a request. With `next`, a path the server has no route for is passed on to it
   * (for mounting inside another server); without, it is answered 404.
   */
  (req: IncomingMessage, res: ServerResponse, next?: () => void): void
  /** Resolves true once no request or shadow judgment is in flight, or false after `timeoutMs`. */
  idle(timeoutMs?: number): Promise<boolean>
  /** Waits for the work in flight (up to `timeoutMs`), then closes the stores; later requests get 503. */
  close(timeoutMs?: number): Promise<boolean>
}

/** States whose answers a server keeps in memory per store (src/adapters/sqlite/answer-cache.ts). */
export const CACHED_STATES = 10_000

/**
 * Creates the HTTP server's handler for a configuration: one runtime (stores, engine) and one
 * spec cache for its whole life. Every request is routed, then passes the guard (Host, origin,
 * token), then takes the fast path (a cached POST /v1/judge) or the full path.
 *
 * @example
 * const handler = createHandler(readConfig(process.env, process.cwd()))
 * http.createServer((req, res) => (req.url === '/health' ? res.end('ok') : handler(req, res))).listen(8080)
 */
export function createHandler(config: Config, options: HandlerOptions = {}): JudgeHandler {
  const shutdown = new AbortController()
  const observer = observerOf(config, options)
  const runtime = createRuntime(config, {
    openStore: (file, now) => openSqliteStore(file, { batchReads: true, cachedStates: CACHED_STATES, now }),
    watchEngine: observer.watchEngine,
    ...options,
  })
  const token = config.serverToken === null ? null : serverToken(config.serverToken)
  const replies = createReplyCache()
  const ctx: ServerContext = {
    config,
    runtime,
    token,
    guard: createGuard({ token, allowedHosts: config.allowedHosts, listenHost: config.host }),
    paths: createResolvedPaths({
      root: config.projects,
      specs: createSpecCache(),
      storeFileFor: runtime.storeFileFor,
      epochOf: (project) => answersEpochOf(runtime, project),
      onStale: () => replies.dropStale(),
    }),
    replies,
    comparisons: createCompareMemo(),
    tasks: createTasks(),
    log: options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
    clean: messageCleaner(config),
    now: options.now ?? (() => new Date()),
    shutdown: shutdown.signal,
    observer,
  }
  const trace = options.trace ?? (() => {})
  const router = createRouter(options.routes ?? ROUTES)
  const fast = fastPathOf(ctx, router, () => trace('fast'))
  const stopRetention = startRetention(ctx, options.retention)
  const track = (res: ServerResponse, work: Promise<void>) =>
    void ctx.tasks.track(work.catch((error: unknown) => lastResort(ctx, res, error)))
  let closed = false
  const handler = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    if (closed) return track(res, refuse(ctx, req, res))
    const method = req.method ?? 'GET'
    const { pathname, query } = splitTarget(req.url ?? '/')
    const found = router.match(method, pathname)
    if (found.kind === 'none' && next) return next()
    const requestId = identify(req, res)
    const seen = observer.begin(req, method, found.kind === 'found' ? found.route.path : 'none', requestId)
    let admission: Admission
    try {
      admission = ctx.guard.admit(method, req.headers, query)
    } catch (error) {
      send(res, failure(ctx, error, method, pathname, null, requestId))
      seen.by = 'guard'
      observer.end(seen, res)
      return trace('guard')
    }
    const full = (text?: string) => {
      seen.by = 'full'
      observer.watch(seen, res)
      trace('full')
      track(
        res,
        observer.within(seen, () => serveFull(ctx, { req, res, method, pathname, query, found, admission, text })),
      )
    }
    // A form's token is read from its body, which only the full path reads before checking it.
    if (!admission.inForm && fast?.take(req, res, full, seen)) return
    full()
  }
  return Object.assign(handler, {
    idle: (timeoutMs?: number) => ctx.tasks.idle(timeoutMs),
    async close(timeoutMs?: number) {
      closed = true
      stopRetention()
      const finished = await ctx.tasks.idle(timeoutMs)
      // Past the bound, what still waits on the engine is cancelled, and given a moment to unwind.
      if (!finished) {
        shutdown.abort(new Error('the server is shutting down'))
        await ctx.tasks.idle(1000)
      }
      ctx.runtime.close()
      observer.metrics?.stop()
      return finished
    },
  })
}

/** The fast path of POST /v1/judge, when the judge endpoint serves it. */
function fastPathOf(ctx: ServerContext, router: Router<Endpoint>, answered: () => void): FastPath | null {
  const found = router.match('POST', '/v1/judge')
  if (found.kind !== 'found' || found.route.value !== judgeEndpoint) return null
  return createFastPath(
    ctx,
    {
      failed: (error, res) => failure(ctx, error, 'POST', '/v1/judge', null, idOf(res)),
      lastResort: (res, error) => lastResort(ctx, res, error),
      answered,
    },
    ctx.replies,
  )
}

// The query of every request without one: read, never written (a page's links build their own).
const NO_QUERY: URLSearchParams = new URLSearchParams()

/** Splits a request target into its path and query, taking the path literally (`//x` is not a host). */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const mark = target.indexOf('?')
  if (mark === -1) return { pathname: target, query: NO_QUERY }
  return { pathname: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) }
}

/** What nothing else caught (a failure writing the response): logged, and the connection dropped. */
function lastResort(ctx: ServerContext, res: ServerResponse, error: unknown): void {
  ctx.log(`internal error while answering: ${ctx.clean((error as Error)?.stack ?? String(error))}`)
  res.destroy()
}

async function refuse(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const json = isApiPath(splitTarget(req.url ?? '/').pathname)
  const requestId = identify(req, res)
  send(
    res,
    errorReply(new ShuttingDownError('the server is shutting down'), { json, token: null, clean: ctx.clean, requestId })
      .reply,
  )
}
