import { performance } from 'node:perf_hooks'
import { context, SpanKind, trace, type Span } from '@opentelemetry/api'
import { tokenCost } from '../../core/judge/cost.ts'
import { engineRequestId } from '../../adapters/engine-request-id.ts'
import { EngineError } from '../../errors.ts'
import type { Engine, EngineRequest, EngineResult } from '../../ports/engine.ts'
import { currentRequest } from './request-scope.ts'
import type { ServerMetrics } from './server-metrics.ts'
import { failed, isLive, tracer } from './tracing.ts'

/** What watchEngine feeds: the metrics (null when off), the price the cost is counted at, and the secrets. */
export interface EngineWatch {
  readonly metrics: ServerMetrics | null
  readonly pricePerMtok: number
  /** The server's token and the engine's key: an engine request id holding either is not kept. */
  readonly secrets?: readonly (string | null)[]
}

/**
 * The engine with each request watched: a span of its own (docs/deploy.md, Traces), the engine's
 * request id kept for the access log line of the request that asked, and with metrics its status,
 * time and cost, and whether it asks again what failed before (the pacing retries with the same
 * request object, so a request seen before is a retry).
 */
export function watchEngine(engine: Engine, watch: EngineWatch): Engine {
  const { metrics, pricePerMtok } = watch
  // An engine passed in code may name its requests anyhow: each id is held to the rule here too.
  const idOf = (id: string | null | undefined) => engineRequestId(id, watch.secrets ?? [])
  const asked = new WeakSet<EngineRequest>()
  return {
    ...engine,
    async ask(request, signal) {
      const retry = asked.has(request)
      if (retry) metrics?.retry()
      else asked.add(request)
      const span = tracer().startSpan('engine.ask', {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.request.model': request.model,
          'judge.questions': request.questions.map((q) => q.name),
          'judge.retry': retry,
        },
      })
      const live = isLive(span)
      const started = performance.now()
      const seconds = () => (performance.now() - started) / 1000
      try {
        const result = await (live
          ? context.with(trace.setSpan(context.active(), span), () => engine.ask(request, signal))
          : engine.ask(request, signal))
        const cost = tokenCost(result.inputTokens, pricePerMtok)
        metrics?.engine('200', seconds(), cost, engine.spendsNothing === true)
        const id = idOf(result.requestId)
        keep(id)
        if (live) answered(span, result, cost, id)
        return result
      } catch (error) {
        const engineError = error instanceof EngineError ? error : null
        metrics?.engine(engineError?.engineStatus != null ? String(engineError.engineStatus) : 'error', seconds(), 0)
        const id = idOf(engineError?.requestId)
        keep(id)
        if (live) {
          if (engineError?.engineStatus != null) span.setAttribute('judge.engine.status', engineError.engineStatus)
          if (id) span.setAttribute('judge.engine.request_id', id)
          failed(span, error)
        }
        throw error
      } finally {
        span.end()
      }
    },
  }
}

/** Keeps the engine's id of a request for the log line of the HTTP request that asked it. */
function keep(requestId: string | null): void {
  if (requestId) currentRequest()?.engineIds.push(requestId)
}

function answered(span: Span, result: EngineResult, cost: number, requestId: string | null): void {
  span.setAttributes({
    'gen_ai.response.model': result.model,
    'gen_ai.usage.input_tokens': result.inputTokens,
    'gen_ai.usage.output_tokens': result.outputTokens,
    'judge.cost_usd': cost,
    'judge.engine.requests': result.requests ?? 1,
    ...(requestId ? { 'judge.engine.request_id': requestId } : {}),
  })
}
