import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { Config } from '../config.ts'
import { ShuttingDownError } from '../errors.ts'
import { authorize } from './auth.ts'
import { BODY_LIMIT, collectBody, parseJson, PRE_AUTH_FORM_LIMIT } from './body.ts'
import type { Endpoint, HttpRequest } from './context.ts'
import { endpointOf, failure } from './failure.ts'
import type { Admission } from './guard.ts'
import { errorReply, headersOf, type Reply } from './reply.ts'
import { startRetention } from './retention.ts'
import { createRouter, type Match } from './router.ts'
import { isApiPath, ROUTES } from './routes.ts'
import { createServerContext, type HandlerContext, type HandlerOptions } from './server-context.ts'
import type { AnsweredBy, Seen } from './ops/observe.ts'
import { REQUEST_ID_HEADER, requestIdOf } from './ops/request-id.ts'

export type { AnsweredBy, HandlerOptions }

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

/** One request on its way through the handler: all its state, in one object passed from step to step. */
interface Exchange {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly method: string
  readonly pathname: string
  readonly query: URLSearchParams
  readonly found: Match<Endpoint>
  readonly requestId: string
  /** The request as the observer began it (metrics, access log, span). */
  readonly seen: Seen
  /** Who answered it: the guard, a kept reply (`fast`) or its endpoint (`full`). */
  by: AnsweredBy
  /** The token its pages carry on, once the guard (or its form) gave it. */
  token: string | null
}

/** What every step of a request works with: the handler's context, and whom to tell who answered. */
interface Shell {
  readonly ctx: HandlerContext
  readonly told: (by: AnsweredBy) => void
}

/**
 * Creates the HTTP server's handler for a configuration: the one place that touches a request and
 * its response. Each request is routed (router.ts), given its id, admitted by the guard (Host,
 * origin, token), its body read once (when its method has one), its endpoint called with plain
 * data and its Reply written; every request ends in one place, where its metrics, access log line
 * and span are taken.
 *
 * @example
 * const handler = createHandler(readConfig(process.env, process.cwd()))
 * http.createServer((req, res) => (req.url === '/health' ? res.end('ok') : handler(req, res))).listen(8080)
 */
export function createHandler(config: Config, options: HandlerOptions = {}): JudgeHandler {
  const shutdown = new AbortController()
  const ctx = createServerContext(config, options, shutdown.signal)
  const shell: Shell = { ctx, told: options.trace ?? (() => {}) }
  const router = createRouter(options.routes ?? ROUTES)
  const stopRetention = startRetention(ctx, options.retention)
  let closed = false
  const handler = (req: IncomingMessage, res: ServerResponse, next?: () => void): void => {
    const method = req.method ?? 'GET'
    const { pathname, query } = splitTarget(req.url ?? '/')
    if (closed) return refuse(shell, res, pathname, idOf(req))
    const found = router.match(method, pathname)
    if (found.kind === 'none' && next) return next()
    const requestId = idOf(req)
    const route = found.kind === 'found' ? found.route.path : 'none'
    const seen = ctx.observer.begin({ method, route, path: pathname, headers: req.headers, requestId })
    admit(shell, { req, res, method, pathname, query, found, requestId, seen, by: 'full', token: null })
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
      ctx.observer.metrics?.stop()
      return finished
    },
  })
}

// The query of every request without one: read, never written (a page's links build their own).
const NO_QUERY: URLSearchParams = new URLSearchParams()

/** Splits a request target into its path and query, taking the path literally (`//x` is not a host). */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const mark = target.indexOf('?')
  if (mark === -1) return { pathname: target, query: NO_QUERY }
  return { pathname: target.slice(0, mark), query: new URLSearchParams(target.slice(mark + 1)) }
}

/**
 * The id of a request: its X-Request-Id when well formed, else a new one. One sent twice, which
 * node:http joins as `a, b`, is read header by header.
 */
function idOf(req: IncomingMessage): string {
  const joined = req.headers[REQUEST_ID_HEADER]
  return requestIdOf(joined?.includes(',') ? req.headersDistinct[REQUEST_ID_HEADER] : joined)
}

/** The guard's step: a request refused is answered at once; one admitted has its body read, if it has one. */
function admit(shell: Shell, x: Exchange): void {
  let admission: Admission
  try {
    admission = shell.ctx.guard.admit(x.method, x.req.headers, x.query)
  } catch (error) {
    x.by = 'guard'
    return respond(shell, x, failure(shell.ctx, error, x.method, x.pathname, null, x.requestId, x.query))
  }
  if (!hasBody(x, admission)) return serve(shell, x, admission, '')
  // A form that must carry the token itself is read only so far before the token is checked.
  const limit = admission.inForm ? PRE_AUTH_FORM_LIMIT : BODY_LIMIT
  const declared = Number(x.req.headers['content-length'])
  // A client waiting for 100 Continue is asked for its body once it is known not to be over the limit.
  if (!(declared > limit) && /^100-continue$/i.test(x.req.headers.expect ?? '')) x.res.writeContinue()
  const done = shell.ctx.tasks.enter()
  collectBody(x.req, declared, limit, (error, text) => {
    try {
      if (error) respond(shell, x, failure(shell.ctx, error, x.method, x.pathname, null, x.requestId))
      else serve(shell, x, admission, text)
    } finally {
      done()
    }
  })
}

/** Whether a request's body is read: a routed method that sends one, or a form that carries the token. */
function hasBody(x: Exchange, admission: Admission): boolean {
  if (admission.inForm) return x.method === 'POST' && isForm(x.req.headers)
  return x.found.kind === 'found' && x.method !== 'GET' && x.method !== 'HEAD'
}

function isForm(headers: IncomingHttpHeaders): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(headers['content-type'] ?? '')
}

/** Calls the endpoint with the request as plain data, its body read; a reply made at once is sent at once. */
function serve(shell: Shell, x: Exchange, admission: Admission, text: string): void {
  const { ctx } = shell
  let result: Reply | Promise<Reply>
  try {
    const form = once(() => new URLSearchParams(text))
    const formToken = x.method === 'POST' && isForm(x.req.headers) ? form().get('token') : null
    x.token = admission.inForm
      ? authorize(ctx.token, formToken === null ? null : { token: formToken, source: 'form' })
      : admission.token
    const request = requestOf(x, text, form)
    result = ctx.observer.within(x.seen, () => endpointOf(x.found, x.method, x.pathname)(ctx, request))
  } catch (error) {
    result = failure(ctx, error, x.method, x.pathname, x.token, x.requestId, x.query)
  }
  if (!(result instanceof Promise)) return respond(shell, x, result)
  void ctx.tasks.track(
    result.then(
      (reply) => respond(shell, x, reply),
      (error: unknown) => respond(shell, x, failure(ctx, error, x.method, x.pathname, x.token, x.requestId)),
    ),
  )
}

/** A request as endpoints see it: its body parsed once, as JSON or as a form, whichever they ask for. */
function requestOf(x: Exchange, text: string, form: () => URLSearchParams): HttpRequest {
  const json = once(() => Promise.resolve(text).then(parseJson))
  const params = x.found.kind === 'found' ? x.found.params : {}
  const { method, pathname, query, token } = x
  return { method, pathname, query, params, headers: x.req.headers, token, body: text, json, form: async () => form() }
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null
  return () => (made ??= { value: make() }).value
}

/** Writes a reply out and ends the request: the one place a response is written and a request's figures taken. */
function respond(shell: Shell, x: Exchange, reply: Reply): void {
  if (reply.kept) x.by = 'fast'
  const written = write(shell, x.res, reply, x.requestId)
  const reviewer = reply.reviewer ?? null
  // A response never written (its client gone) was never answered: 499, as proxies log it.
  shell.ctx.observer.end(x.seen, { status: written?.status ?? 499, bytes: written?.bytes ?? 0, reviewer, by: x.by })
  shell.told(x.by)
  // Within the request, so that its work (a shadow judgment) is traced under the request's span.
  const after = reply.after
  if (after) void shell.ctx.tasks.track(shell.ctx.observer.within(x.seen, () => afterSent(shell, x.res, after)))
}

/**
 * Writes a reply with its request id, in one object of headers (node:http's quick way); null when
 * nothing was written: the client is gone (the work it asked for is done and stored all the same),
 * or the response could not be written, which drops the connection.
 */
function write(shell: Shell, res: ServerResponse, reply: Reply, requestId: string) {
  if (res.headersSent || res.destroyed) return null
  const headers = headersOf(reply)
  headers[REQUEST_ID_HEADER] = requestId
  try {
    res.writeHead(reply.status, headers)
    res.end(reply.body)
  } catch (error) {
    shell.ctx.log(`internal error while answering: ${shell.ctx.clean((error as Error)?.stack ?? String(error))}`)
    res.destroy()
    return null
  }
  return { status: reply.status, bytes: Number(headers['content-length']) }
}

/** A request after close: 503, with its id, and nothing else done. */
function refuse(shell: Shell, res: ServerResponse, pathname: string, requestId: string): void {
  const style = { json: isApiPath(pathname), token: null, clean: shell.ctx.clean, requestId }
  write(shell, res, errorReply(new ShuttingDownError('the server is shutting down'), style).reply, requestId)
}

/** Runs `after` once the response has gone out (or the client is gone), logging what it throws. */
async function afterSent(shell: Shell, res: ServerResponse, after: () => Promise<void>): Promise<void> {
  if (!res.writableFinished && !res.destroyed) {
    await new Promise<void>((resolve) => {
      res.once('finish', resolve)
      res.once('close', resolve)
    })
  }
  try {
    await after()
  } catch (error) {
    shell.ctx.log(`after-response task failed: ${shell.ctx.clean(String((error as Error)?.message ?? error))}`)
  }
}
