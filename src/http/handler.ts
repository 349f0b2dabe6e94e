import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Config } from '../config.ts'
import { createSpecCache } from '../adapters/files/spec-files.ts'
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.ts'
import { MethodNotAllowedError, NotFoundError, ShuttingDownError } from '../errors.ts'
import { createRuntime, type RuntimeOptions } from '../runtime.ts'
import { authorize, presentedToken, serverToken } from './auth.ts'
import { BODY_LIMIT, PRE_AUTH_FORM_LIMIT, readBody, requestBody, type Body } from './body.ts'
import { messageCleaner, type Endpoint, type HttpRequest, type ServerContext } from './context.ts'
import { judgeEndpoint } from './endpoints/judge.ts'
import { createFastPath, type FastPath } from './fast-path.ts'
import { errorReply, type Reply } from './reply.ts'
import { createResolvedPaths } from './resolved-paths.ts'
import { createRouter, type Match, type Route, type Router } from './router.ts'
import { isApiPath, ROUTES } from './routes.ts'
import { send } from './send.ts'
import { createTasks } from './tasks.ts'

/** Options of createHandler: the runtime's adapters (fakes in tests), the log, the routes. */
export interface HandlerOptions extends RuntimeOptions {
  /** Writes one line to the server log; default standard error. */
  readonly log?: (line: string) => void
  /** The routes answered; default every route of the server. */
  readonly routes?: readonly Route<Endpoint>[]
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

/**
 * Creates the HTTP server's handler for a configuration: one runtime (stores, engine) and one
 * spec cache for its whole life.
 *
 * @example
 * const handler = createHandler(readConfig(process.env, process.cwd()))
 * http.createServer((req, res) => (req.url === '/health' ? res.end('ok') : handler(req, res))).listen(8080)
 */
export function createHandler(config: Config, options: HandlerOptions = {}): JudgeHandler {
  const shutdown = new AbortController()
  const runtime = createRuntime(config, { openStore: (file) => openSqliteStore(file, { batchReads: true, cachedStates: CACHED_STATES }), ...options })
  const ctx: ServerContext = {
    config,
    runtime,
    token: config.serverToken === null ? null : serverToken(config.serverToken),
    paths: createResolvedPaths({ root: config.projects, specs: createSpecCache(), storeFileFor: runtime.storeFileFor }),
    tasks: createTasks(),
    log: options.log ?? ((line) => void process.stderr.write(`${line}\n`)),
    clean: messageCleaner(config),
    now: options.now ?? (() => new Date()),
    shutdown: shutdown.signal,
  }
  const router = createRouter(options.routes ?? ROUTES)
  const track = (res: ServerResponse, work: Promise<void>) => void ctx.tasks.track(work.catch((error: unknown) => lastResort(ctx, res, error)))
  const fast = fastPathOf(ctx, router, (req, res, text) => track(res, serve(ctx, router, req, res, undefined, text)))
  let closed = false
  const handler = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    if (!closed && fast?.take(req, res)) return
    track(res, closed ? refuse(ctx, req, res) : serve(ctx, router, req, res, next))
  }
  return Object.assign(handler, {
    idle: (timeoutMs?: number) => ctx.tasks.idle(timeoutMs),
    async close(timeoutMs?: number) {
      closed = true
      const finished = await ctx.tasks.idle(timeoutMs)
      // Past the bound, what still waits on the engine is cancelled, and given a moment to unwind.
      if (!finished) {
        shutdown.abort(new Error('the server is shutting down'))
        await ctx.tasks.idle(1000)
      }
      ctx.runtime.close()
      return finished
    },
  })
}

/** The fast path of POST /v1/judge, when the judge endpoint serves it; `handOn` serves a request on the full path. */
function fastPathOf(ctx: ServerContext, router: Router<Endpoint>, handOn: (req: IncomingMessage, res: ServerResponse, text: string) => void): FastPath | null {
  const found = router.match('POST', '/v1/judge')
  if (found.kind !== 'found' || found.route.value !== judgeEndpoint) return null
  return createFastPath(ctx, {
    // A request taken before a shutdown began is served in full, as the full path serves what it took.
    handOn,
    failed: (error, pathname) => failure(ctx, error, 'POST', pathname, null),
    lastResort: (res, error) => lastResort(ctx, res, error),
  })
}

/** States whose answers a server keeps in memory per store (src/adapters/sqlite/answer-cache.ts). */
export const CACHED_STATES = 10_000

async function serve(ctx: ServerContext, router: Router<Endpoint>, req: IncomingMessage, res: ServerResponse, next?: () => void, text?: string): Promise<void> {
  const method = req.method ?? 'GET'
  const { pathname, query } = splitTarget(req.url ?? '/')
  const found = router.match(method, pathname)
  if (found.kind === 'none' && next) return next()
  const body = text === undefined ? requestBody(req, res, bodyLimitOf(ctx, req, query)) : readBody(req, text)
  let token: string | null = null
  let reply: Reply
  try {
    const presented = ctx.token === null ? null : await presentedToken(req.headers, query, () => formOf(method, body))
    token = authorize(ctx.token, presented)
    const params = found.kind === 'found' ? found.params : {}
    const request: HttpRequest = { method, pathname, query, params, headers: req.headers, token, json: body.json, form: body.form }
    reply = await endpointOf(found, method, pathname)(ctx, request)
  } catch (error) {
    reply = failure(ctx, error, method, pathname, token)
  }
  send(res, reply)
  if (reply.after) void ctx.tasks.track(afterSent(ctx, res, reply.after))
}

/** The reply to an error, logged when it is the server's fault: the one way errors are answered. */
function failure(ctx: ServerContext, error: unknown, method: string, pathname: string, token: string | null): Reply {
  const failed = errorReply(error, { json: isApiPath(pathname), token, clean: ctx.clean })
  if (failed.logged) ctx.log(`internal error on ${method} ${pathname}: ${ctx.clean(detailsOf(error))}`)
  return failed.reply
}

function endpointOf(found: Match<Endpoint>, method: string, pathname: string): Endpoint {
  if (found.kind === 'found') return found.route.value
  if (found.kind === 'method') {
    throw new MethodNotAllowedError(`${method} is not allowed on ${pathname}; allowed: ${found.allow.join(', ')}`, found.allow)
  }
  throw new NotFoundError(`nothing here: ${pathname}`)
}

/**
 * A form that must carry the token itself is read only up to PRE_AUTH_FORM_LIMIT before the token
 * is checked, so that a stranger cannot make the server take in a large body; every form of the
 * product is far smaller.
 */
function bodyLimitOf(ctx: ServerContext, req: IncomingMessage, query: URLSearchParams): number {
  if (ctx.token === null || query.has('token') || /^Bearer[ \t]/i.test(req.headers.authorization ?? '')) return BODY_LIMIT
  return PRE_AUTH_FORM_LIMIT
}

async function formOf(method: string, body: Body): Promise<URLSearchParams | null> {
  return method === 'POST' && body.isForm ? body.form() : null
}

/** Splits a request target into its path and query, taking the path literally (`//x` is not a host). */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const mark = target.indexOf('?')
  if (mark === -1) return { pathname: target, query: new URLSearchParams() }
  return { pathname: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) }
}

/** Runs `after` once the response has gone out (or the client is gone), logging what it throws. */
async function afterSent(ctx: ServerContext, res: ServerResponse, after: () => Promise<void>): Promise<void> {
  if (!res.writableFinished && !res.destroyed) {
    await new Promise<void>((resolve) => {
      res.once('finish', resolve)
      res.once('close', resolve)
    })
  }
  try {
    await after()
  } catch (error) {
    ctx.log(`after-response task failed: ${ctx.clean(String((error as Error)?.message ?? error))}`)
  }
}

/** An error's stack, and its cause's, for the log. */
function detailsOf(error: unknown): string {
  const stack = (error as Error)?.stack ?? String(error)
  const cause = (error as Error)?.cause
  return cause === undefined ? stack : `${stack}\ncaused by: ${(cause as Error)?.stack ?? String(cause)}`
}

/** What nothing else caught (a failure writing the response): logged, and the connection dropped. */
function lastResort(ctx: ServerContext, res: ServerResponse, error: unknown): void {
  ctx.log(`internal error while answering: ${ctx.clean((error as Error)?.stack ?? String(error))}`)
  res.destroy()
}

async function refuse(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const json = isApiPath(splitTarget(req.url ?? '/').pathname)
  send(res, errorReply(new ShuttingDownError('the server is shutting down'), { json, token: null, clean: ctx.clean }).reply)
}
