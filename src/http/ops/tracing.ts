import type { IncomingHttpHeaders } from 'node:http'
import type { SpecResult } from '../../core/judge/judge-row.ts'
import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api'

let provider: TracerProvider | null = null
let current: Tracer | null = null

/**
 * The server's tracer (docs/deploy.md, Traces), of the tracer provider registered now. Until the
 * host registers an OpenTelemetry SDK it is the API's no-op tracer, whose span is one small object
 * that records nothing.
 */
export function tracer(): Tracer {
  const now = trace.getTracerProvider()
  if (now !== provider) [provider, current] = [now, now.getTracer('judge-rows')]
  return current!
}

/** Whether a span takes part in a trace: recorded, or sampled out but carrying a trace to pass on. */
export function isLive(span: Span): boolean {
  return span.isRecording() || isSpanContextValid(span.spanContext())
}

/**
 * The span of a request, child of the active span (a host's HTTP instrumentation) or else of the
 * trace context the request carries (`traceparent`, when the host registered a propagator); null
 * when nothing is traced.
 */
export function startRequestSpan(
  headers: IncomingHttpHeaders,
  method: string,
  route: string,
  path: string,
  requestId: string,
): { span: Span; context: Context } | null {
  const active = context.active()
  const parent = trace.getSpan(active) === undefined ? propagation.extract(active, headers) : active
  const span = tracer().startSpan(`${method} ${route}`, { kind: SpanKind.SERVER }, parent)
  if (!isLive(span)) return null
  span.setAttributes({
    'http.request.method': method,
    'http.route': route,
    'url.path': path,
    'judge.request_id': requestId,
  })
  return { span, context: trace.setSpan(parent, span) }
}

/** Ends a request's span with its status: an error for a 5xx, as a server's span counts them. */
export function endRequestSpan(span: Span, status: number, by: string): void {
  span.setAttributes({ 'http.response.status_code': status, 'judge.answered_by': by })
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}

/**
 * Runs `work` in a span of its own, active for what it calls: the span gets `finish`'s attributes
 * of the value, or the error it throws (its message through `clean`).
 */
export async function traced<T>(
  name: string,
  attributes: Attributes,
  work: () => Promise<T>,
  finish: (value: T) => Attributes,
  clean: (text: string) => string,
): Promise<T> {
  const span = tracer().startSpan(name, { attributes })
  if (!isLive(span)) return work()
  try {
    const value = await context.with(trace.setSpan(context.active(), span), work)
    span.setAttributes(finish(value))
    return value
  } catch (error) {
    failed(span, error, clean)
    throw error
  } finally {
    span.end()
  }
}

/**
 * Marks a span failed by `error`: its name as `error.type`, its message (through `clean`, which
 * takes out the server's secrets) as the status. No stack: a span goes wherever the host sends it.
 */
export function failed(span: Span, error: unknown, clean: (text: string) => string = (text) => text): void {
  span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown')
  span.setStatus({ code: SpanStatusCode.ERROR, message: clean(error instanceof Error ? error.message : String(error)) })
}

/**
 * A judgment span's figures: the judgments run and their models, the questions answered, and where the answers came
 * from.
 */
export function judgedAttributes(results: readonly SpecResult[]): Attributes {
  let cached = 0
  let asked = 0
  const questions: string[] = []
  for (const r of results) {
    for (const [question, answer] of Object.entries(r.answers)) {
      questions.push(`${r.spec.name}.${question}`)
      if (answer.cached) cached += 1
      else asked += 1
    }
  }
  return {
    'judge.judgments': results.map((r) => r.spec.name),
    'judge.models': [...new Set(results.map((r) => r.model))],
    'judge.questions': questions,
    'judge.answers.cached': cached,
    'judge.answers.asked': asked,
    'judge.cached': asked === 0,
  }
}
