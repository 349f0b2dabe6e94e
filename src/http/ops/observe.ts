import type { IncomingHttpHeaders } from 'node:http'
import { performance } from 'node:perf_hooks'
import { context, type Context } from '@opentelemetry/api'
import type { SpecResult } from '../../core/judge/judge-row.ts'
import { withinRequest, type RequestScope } from './request-scope.ts'
import type { AnswerKey, ServerMetrics } from './server-metrics.ts'
import { endRequestSpan, startRequestSpan } from './tracing.ts'

/** Which part of the server answered a request: the guard (refused it), a kept reply (`fast`), or its endpoint. */
export type AnsweredBy = 'guard' | 'fast' | 'full'

/** What the handler knows of a request when it begins observing it: plain data, no stream. */
export interface Begun {
  readonly method: string
  /** The route pattern, `none` when no route matched. */
  readonly route: string
  /** The path as requested, without its query. */
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly requestId: string
}

/** How a request ended: its status (499 when its client left before an answer) and the bytes of its body. */
export interface Outcome {
  readonly status: number
  readonly bytes: number
  /** The reviewer a verdict was recorded for, or null. */
  readonly reviewer: string | null
  readonly by: AnsweredBy
}

/** A request being observed: what its work gathers (the engine's ids), its trace, and what begin learned of it. */
export interface Seen extends RequestScope {
  /** The trace context of its span, null when nothing is traced. */
  readonly trace: Context | null
  /** What end needs, null when nothing is observed. */
  readonly watched: Watched | null
}

/** A request observed: what begin learned of it, its span and its clock; `ended` once its figures are taken. */
interface Watched extends Begun {
  readonly traced: ReturnType<typeof startRequestSpan>
  readonly started: number
  ended: boolean
}

/** What the server tells whoever runs it: metrics (when on) and the access log (when on). */
export interface Observer {
  readonly metrics: ServerMetrics | null
  /** Starts observing a request: its span begins, and its clock. */
  begin(begun: Begun): Seen
  /** Takes a request's figures, once however often called: its metrics, its access log line, its span's end. */
  end(seen: Seen, outcome: Outcome): void
  /** Runs a request's work within it: under its span, gathering the engine's request ids (for the access log). */
  within<T>(seen: Seen, work: () => T): T
  /** Counts the answers of judged results, returning their keys (kept with a reply to count its reuses). */
  answered(results: readonly SpecResult[]): readonly AnswerKey[]
  /** Counts a verdict recorded. */
  verdict(judgment: string, verdict: string): void
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
  const log = (watched: Watched, outcome: Outcome, seconds: number, engineIds: readonly string[]) =>
    accessLog!(
      accessLine({
        time: now().toISOString(),
        method: watched.method,
        route: watched.route,
        path: watched.path,
        status: outcome.status,
        ms: Math.round(seconds * 1e6) / 1000,
        bytes: outcome.bytes,
        request_id: watched.requestId,
        by: outcome.by,
        reviewer: outcome.reviewer,
        engine_request_ids: engineIds,
      }),
    )
  return {
    metrics,
    begin(begun) {
      const traced = startRequestSpan(begun.headers, begun.method, begun.route, begun.path, begun.requestId)
      const trace = traced?.context ?? null
      if (metrics === null && accessLog === null && traced === null) return { engineIds: [], trace, watched: null }
      return { engineIds: [], trace, watched: { ...begun, traced, started: performance.now(), ended: false } }
    },
    end(seen, outcome) {
      const watched = seen.watched
      if (watched === null || watched.ended) return
      watched.ended = true
      const { method, route } = watched
      const seconds = (performance.now() - watched.started) / 1000
      if (metrics !== null) {
        metrics.request(method, route, outcome.status, seconds)
        if (outcome.status === 409 && method === 'POST' && route.startsWith('/review')) metrics.conflict()
      }
      if (accessLog !== null) log(watched, outcome, seconds, seen.engineIds)
      if (watched.traced !== null) endRequestSpan(watched.traced.span, outcome.status, outcome.by)
    },
    within(seen, work) {
      if (seen.trace !== null) return withinRequest(seen, () => context.with(seen.trace!, work))
      // The engine's ids are gathered for the access log alone: without it, the work runs as it is.
      return accessLog === null ? work() : withinRequest(seen, work)
    },
    answered(results) {
      const keys: AnswerKey[] = []
      for (const r of results)
        for (const [question, answer] of Object.entries(r.answers))
          keys.push([r.spec.name, question, answer.cached ? 'store' : 'engine'])
      metrics?.answers(keys)
      return keys
    },
    verdict: (judgment, verdict) => metrics?.verdict(judgment, verdict),
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
