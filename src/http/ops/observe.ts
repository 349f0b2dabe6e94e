import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { context, type Context } from '@opentelemetry/api'
import type { SpecResult } from '../../core/judge/judge-row.ts'
import { withinRequest, type RequestScope } from './request-scope.ts'
import type { AnswerKey, ServerMetrics } from './server-metrics.ts'
import { endRequestSpan, startRequestSpan } from './tracing.ts'
import { sentHeaders } from '../send.ts'

/** Which part of the server answered a request: the guard (refused it), the fast path or the full path. */
export type AnsweredBy = 'guard' | 'fast' | 'full'

/** A request being answered: what the handler learns of it on the way. */
export interface Seen extends RequestScope {
  by: AnsweredBy
  /** The trace context of its span, null when nothing is traced. */
  readonly trace: Context | null
}

/** A request observed: what begin learned of it, taken once when it ends; null when nothing is observed. */
interface Observed extends Seen {
  watched: {
    readonly req: IncomingMessage
    readonly method: string
    readonly route: string
    readonly requestId: string
    readonly traced: ReturnType<typeof startRequestSpan>
    readonly started: number
    ended: boolean
  } | null
}

/** What the server tells whoever runs it: metrics (when on) and the access log (when on). */
export interface Observer {
  readonly metrics: ServerMetrics | null
  /**
   * Starts observing a request. Its figures are taken by `end` when its response is written at
   * once, else, once `watch` is called, when the response closes or its client goes.
   */
  begin(req: IncomingMessage, method: string, route: string, requestId: string): Seen
  /** Takes a request's figures when its response closes: for a response written later, or never. */
  watch(seen: Seen, res: ServerResponse): void
  /** Takes a request's figures now, its response written (or its client gone): once, whichever comes first. */
  end(seen: Seen, res: ServerResponse): void
  /** Runs a request's work within it: under its span, gathering the engine's request ids it causes. */
  within<T>(seen: Seen, work: () => T): T
  /** Counts the answers of judged results, returning their keys (kept with a reply to count its reuses). */
  answered(results: readonly SpecResult[]): readonly AnswerKey[]
  /** Counts a verdict recorded, and notes its reviewer for the request's log line. */
  verdict(headers: IncomingHttpHeaders, judgment: string, verdict: string, reviewer: string): void
}

/** Options of createObserver. */
export interface ObserverOptions {
  readonly metrics: ServerMetrics | null
  /** Writes one access log line, or null for none. */
  readonly accessLog: ((line: string) => void) | null
  readonly now?: () => Date
}

/** The observer of one handler: a no-op where both metrics and the access log are off. */
export function createObserver(options: ObserverOptions): Observer {
  const { metrics, accessLog } = options
  const now = options.now ?? (() => new Date())
  // The reviewer of a verdict, by its request's headers object (the one object an endpoint and the handler share).
  const reviewers = new WeakMap<IncomingHttpHeaders, string>()
  const finish = (seen: Observed, res: ServerResponse): void => {
    const watched = seen.watched
    if (watched === null || watched.ended) return
    watched.ended = true
    const { req, method, route, requestId, traced } = watched
    const seconds = (performance.now() - watched.started) / 1000
    // A response cut short before its headers went out was never answered: 499, as proxies log it.
    const status = res.headersSent ? res.statusCode : 499
    if (metrics !== null) {
      metrics.request(method, route, status, seconds)
      if (status === 409 && method === 'POST' && route.startsWith('/review')) metrics.conflict()
    }
    if (accessLog !== null) {
      const path = (req.url ?? '/').split('?', 1)[0]
      accessLog(
        accessLine({
          time: now().toISOString(),
          method,
          route,
          path,
          status,
          ms: Math.round(seconds * 1e6) / 1000,
          bytes: bytesOf(res),
          request_id: requestId,
          by: seen.by,
          reviewer: reviewers.get(req.headers) ?? null,
          engine_request_ids: seen.engineIds,
        }),
      )
    }
    if (traced !== null) endRequestSpan(traced.span, status, seen.by)
  }
  return {
    metrics,
    begin(req, method, route, requestId) {
      const traced = startRequestSpan(req, method, route, requestId)
      const seen: Observed = { by: 'fast', engineIds: [], trace: traced?.context ?? null, watched: null }
      if (metrics === null && accessLog === null && traced === null) return seen
      seen.watched = { req, method, route, requestId, traced, started: performance.now(), ended: false }
      return seen
    },
    watch(seen, res) {
      if ((seen as Observed).watched !== null) res.on('close', () => finish(seen as Observed, res))
    },
    end: (seen, res) => finish(seen as Observed, res),
    within(seen, work) {
      return withinRequest(seen, seen.trace === null ? work : () => context.with(seen.trace!, work))
    },
    answered(results) {
      const keys: AnswerKey[] = []
      for (const r of results)
        for (const [question, answer] of Object.entries(r.answers))
          keys.push([r.spec.name, question, answer.cached ? 'store' : 'engine'])
      metrics?.answers(keys)
      return keys
    },
    verdict(headers, judgment, verdict, reviewer) {
      metrics?.verdict(judgment, verdict)
      if (accessLog !== null) reviewers.set(headers, reviewer)
    },
  }
}

/** One line of the access log (docs/deploy.md): never a token, a query string or a row's values. */
export interface AccessLine {
  readonly time: string
  readonly method: string
  /** The route pattern, `none` when no route matched. */
  readonly route: string
  /** The path as requested, without its query. */
  readonly path: string
  readonly status: number
  readonly ms: number
  /** Bytes of the response body. */
  readonly bytes: number
  readonly request_id: string
  readonly by: AnsweredBy
  readonly reviewer: string | null
  /**
   * The engine's own ids of the engine requests this request made (System One's `x-typesafe-request-id`), failed ones
   * too.
   */
  readonly engine_request_ids: readonly string[]
}

/** An access line as one line of JSON. */
export function accessLine(line: AccessLine): string {
  return JSON.stringify(line)
}

function bytesOf(res: ServerResponse): number {
  const length = Number(sentHeaders(res)?.['content-length'] ?? res.getHeader('content-length'))
  return Number.isFinite(length) ? length : 0
}
