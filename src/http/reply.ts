import {
  InternalError,
  JudgeError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  RetryLaterError,
  UnauthorizedError,
} from '../errors.ts'
import { lazy } from '../lazy.ts'
import { StoreError } from '../store-error.ts'
import { PathRequiredError } from './path-required-error.ts'
import type { Html } from './html.ts'
import type { AnswerKey } from './ops/server-metrics.ts'
import type { Resolved } from './resolved-paths.ts'

// The error page (and the layout and style of every page) is loaded with the first error answered
// as a page, synchronously as an error is answered: a server answering /v1/ alone loads no page.
const errorPages = lazy<typeof import('./pages/error.ts')>(import.meta.url, './pages/error.ts')
const choicePages = lazy<typeof import('./pages/path-choices.ts')>(import.meta.url, './pages/path-choices.ts')
const errorPage = (status: number, message: string, token: string | null, more: Html | '' = ''): Html =>
  errorPages().errorPage(status, message, token, more)
const pathChoices = (...args: Parameters<typeof import('./pages/path-choices.ts').pathChoices>): Html =>
  choicePages().pathChoices(...args)
const tokenForms = lazy<typeof import('./pages/token-form.ts')>(import.meta.url, './pages/token-form.ts')
const tokenForm = (page: string, query: URLSearchParams): Html | '' => tokenForms().tokenForm(page, query)

/** A response as data: the handler is the only place that writes one out. */
export interface Reply {
  readonly status: number
  readonly type: 'json' | 'html'
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
  /** Work to start once the response has been sent, such as a shadow judgment. */
  readonly after?: () => Promise<void>
  /** That the reply may be kept for the same request body while `resolved` stands (src/http/reply-cache.ts). */
  readonly keep?: KeepUnder
  /** That it is a reply kept for the same request body: the access log's `by: fast`. */
  readonly kept?: boolean
  /** The reviewer a verdict was recorded for, named in the request's access log line. */
  readonly reviewer?: string
}

/** What a kept reply holds under: the resolution of its path, and the answers it gives (counted at each reuse). */
export interface KeepUnder {
  readonly resolved: Resolved
  readonly answers: readonly AnswerKey[]
}

/** The hash of the review page's keys script, the one script a page may run (pages/review-script.ts). */
// Written out, so that answering a request loads no page: test/http/reply.ts checks it against the script.
export const SCRIPT_HASH = 'sha256-nb0G9beyho5FsEndKjBu9e94kxtidHeEkgppm1TWm/0='

/**
 * Headers every page carries: no scripts but the review keys' (by its hash), no framing, no referrer (links may hold
 * the token).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    `default-src 'none'; script-src '${SCRIPT_HASH}'; style-src 'unsafe-inline'; img-src data:; ` +
    `form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
}

/** Headers every JSON response carries. */
export const JSON_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff' }

/** A JSON response. */
export function jsonReply(value: unknown, status = 200): Reply {
  return { status, type: 'json', body: JSON.stringify(value) }
}

/** An HTML page response. */
export function pageReply(page: Html, status = 200): Reply {
  return { status, type: 'html', body: page.text }
}

/** A 303 See Other to `location`, as a form's post answers (the page then reloads with GET). */
export function redirectReply(location: string): Reply {
  return { status: 303, type: 'html', body: '', headers: { location } }
}

/** Every header of a reply: its content type, the security headers of its kind, its own. */
export function headersOf(reply: Reply): Record<string, string> {
  const type = reply.type === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8'
  return {
    'content-type': type,
    'content-length': String(Buffer.byteLength(reply.body)),
    'cache-control': 'no-store',
    ...(reply.type === 'json' ? JSON_HEADERS : PAGE_HEADERS),
    ...reply.headers,
  }
}

/** How to render an error: as JSON (for /v1/) or as a page, and with what to scrub from messages. */
export interface ErrorStyle {
  readonly json: boolean
  /** The token to carry on in the error page's links, or null. */
  readonly token: string | null
  /** Makes a message safe to show: strips server paths and secrets. */
  readonly clean: (message: string) => string
  /** The request's id (X-Request-Id), shown in every 5xx so a complaint can be tied to the logs. */
  readonly requestId?: string | null
  /** The page asked for, so that a page lacking its `path` can link the spec files served for it. */
  readonly page?: string
  /** The query of a GET of that page, so that a page refused for its token offers to ask again with one. */
  readonly query?: URLSearchParams | null
}

/**
 * The one place errors become responses: a JudgeError answers with its status and message, as
 * `{"error": message, "name": its class}` (so a client tells a cost cap's 422 from a spec's) or an
 * HTML page; an InternalError or anything else is a 500 named InternalError whose details stay in
 * the log. A 5xx also carries the request's id (`request_id`).
 */
export function errorReply(error: unknown, style: ErrorStyle): { reply: Reply; logged: boolean } {
  // An InternalError's message is for the log only, as an unexpected error's is.
  const known = error instanceof JudgeError && !(error instanceof InternalError)
  const status = known ? error.status : 500
  const message = known ? style.clean(error.message) : 'internal error; the server log has the details'
  const name = known ? error.name : 'InternalError'
  const id = status >= 500 ? (style.requestId ?? null) : null
  const more = nextSteps(error, style)
  const reply = style.json
    ? jsonReply(id === null ? { error: message, name } : { error: message, name, request_id: id }, status)
    : pageReply(errorPage(status, id === null ? message : `${message} (request ${id})`, style.token, more), status)
  // Every 500 is the server's fault: its details go to the log, whatever the caller is shown.
  return { reply: { ...reply, headers: errorHeaders(error) }, logged: status === 500 }
}

/** What an error page offers after its message: the spec files for a missing `path`, a token form for a 401. */
function nextSteps(error: unknown, style: ErrorStyle): Html | '' {
  if (style.json || style.page === undefined) return ''
  if (error instanceof PathRequiredError) return pathChoices(error.choices(), style.page, style.token)
  if (error instanceof UnauthorizedError && style.query) return tokenForm(style.page, style.query)
  return ''
}

function errorHeaders(error: unknown): Record<string, string> {
  if (error instanceof MethodNotAllowedError) return { allow: error.allow.join(', ') }
  if (error instanceof UnauthorizedError) return { 'www-authenticate': 'Bearer realm="judge"' }
  // The rest of an oversized body is never read, so the connection cannot be reused.
  if (error instanceof PayloadTooLargeError) return { connection: 'close' }
  // A 503 for the engine's rate limit or the daily cap says when asking again can succeed.
  if (error instanceof RetryLaterError) return { 'retry-after': String(error.retryAfterS) }
  // A store locked by another writer is free again once that write ends.
  if (error instanceof StoreError && error.trouble === 'locked') return { 'retry-after': '1' }
  return {}
}
