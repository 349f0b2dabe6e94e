import type { CompareMemo } from '../app/compare-memo.ts'
import { realpathSync } from 'node:fs'
import type { IncomingHttpHeaders } from 'node:http'
import { sep } from 'node:path'
import type { Config } from '../config.ts'
import type { Project } from '../core/types.ts'
import type { Runtime } from '../runtime.ts'
import type { ServerToken } from './auth.ts'
import type { Guard } from './guard.ts'
import type { Observer } from './ops/observe.ts'
import type { Reply } from './reply.ts'
import type { ReplyCache } from './reply-cache.ts'
import type { Resolved, ResolvedPaths } from './resolved-paths.ts'
import type { Tasks } from './tasks.ts'

/** What every endpoint works with, created once per handler and shared by its requests. */
export interface ServerContext {
  readonly config: Config
  readonly runtime: Runtime
  /** The configured token's check, or null for an open server. */
  readonly token: ServerToken | null
  /** The checks every request passes before its endpoint is called: Host, origin, token. */
  readonly guard: Guard
  /** Request paths as last checked against the disk: the one revalidation point. */
  readonly paths: ResolvedPaths
  /** Replies of POST /v1/judge kept by request body (reply-cache.ts), dropped when rows are forgotten. */
  readonly replies: ReplyCache
  /** Comparisons made (GET /v1/compare and /compare), kept while the stores they read are unwritten. */
  readonly comparisons: CompareMemo
  /** Requests and shadow judgments in flight. */
  readonly tasks: Tasks
  /** Writes one line to the server log. */
  readonly log: (line: string) => void
  /** Makes a message safe to send or log: strips server paths and secrets. */
  readonly clean: (message: string) => string
  readonly now: () => Date
  /** Aborts when a shutdown gives up waiting: the engine requests still in flight are cancelled. */
  readonly shutdown: AbortSignal
  /** Metrics and the access log (src/http/ops/observe.ts); absent, nothing is counted. */
  readonly observer?: Observer
}

/** A request as endpoints see it: plain data, parsed and authorized, its body read already. */
export interface HttpRequest {
  readonly method: string
  readonly pathname: string
  readonly query: URLSearchParams
  /** The path's parameters, by the names the route gives them (`/runs/{run_id}`); empty for most routes. */
  readonly params: Readonly<Record<string, string>>
  readonly headers: IncomingHttpHeaders
  /** The token to carry on in the page's links and forms (given in the query or a form), or null. */
  readonly token: string | null
  /** The body as it came in (`''` for a GET or HEAD, whose body is never read). */
  readonly body: string
  /** The body as JSON (400 when not JSON or nested too deeply), parsed once however often asked for. */
  json(): Promise<unknown>
  /** The body as form fields, parsed once however often asked for. */
  form(): Promise<URLSearchParams>
}

/** An endpoint: a request in, a reply out. Errors it throws become error replies. */
export type Endpoint = (ctx: ServerContext, request: HttpRequest) => Reply | Promise<Reply>

/** Loads the spec file or folder a request names, confined to the served folder. */
export function loadRequested(ctx: ServerContext, raw: unknown, field = 'path'): Project {
  return resolveRequested(ctx, raw, field).project
}

/** loadRequested with when the disk was last checked for it, for what is kept from it (replies). */
export function resolveRequested(ctx: ServerContext, raw: unknown, field = 'path'): Resolved {
  return ctx.paths.load(raw, field, ctx.now().getTime())
}

/** Secrets shorter than this are not scrubbed: a short value matches ordinary words and would reveal itself. */
export const MIN_SCRUBBED_SECRET = 8

/**
 * A scrubber for messages: the served folder's absolute path becomes relative (a caller names
 * paths relative to it and has no need to learn where it lives), and the server token and the
 * engine keys (the configured engine's and every juror engine's), should a message ever hold one,
 * are replaced where they stand whole (not inside a longer word), so that a replacement never
 * hints at what a secret is.
 */
export function messageCleaner(config: Config): (message: string) => string {
  // The root folder itself is left alone: stripping every "/" would garble the message.
  const roots = [...new Set([config.projects, realOr(config.projects)])].filter((root) => root !== sep)
  // Every key an engine may be asked with: the configured engine's and each juror engine's (its ENGINE_<KIND>_API_KEY,
  // else its SDK's own variable).
  const keys = Object.values(config.jurors).map((juror) => juror.apiKey)
  const secrets = [config.serverToken, config.engine.apiKey, ...keys]
    .filter((s): s is string => s !== null && s.length >= MIN_SCRUBBED_SECRET)
    .map((s) => new RegExp(`(?<![\\w.~+/=-])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.~+/=-])`, 'g'))
  return (message) => {
    let out = message
    for (const secret of secrets) out = out.replace(secret, '[redacted]')
    for (const root of roots)
      out = out
        .split(root + sep)
        .join('')
        .split(root)
        .join('.')
    return out
  }
}

function realOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}
