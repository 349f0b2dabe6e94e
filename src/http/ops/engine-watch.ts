import { performance } from 'node:perf_hooks'
import { tokenCost } from '../../core/judge/cost.ts'
import { EngineError } from '../../errors.ts'
import type { Engine, EngineRequest } from '../../ports/engine.ts'
import type { ServerMetrics } from './server-metrics.ts'

/**
 * The engine with each request counted: its status, time and cost, and whether it asks again
 * what failed before (the pacing retries with the same request object, so a request seen before
 * is a retry).
 */
export function watchEngine(engine: Engine, metrics: ServerMetrics, pricePerMtok: number): Engine {
  const asked = new WeakSet<EngineRequest>()
  return {
    ...engine,
    async ask(request, signal) {
      if (asked.has(request)) metrics.retry()
      else asked.add(request)
      const started = performance.now()
      const seconds = () => (performance.now() - started) / 1000
      try {
        const result = await engine.ask(request, signal)
        metrics.engine('200', seconds(), tokenCost(result.inputTokens, pricePerMtok))
        return result
      } catch (error) {
        const status = error instanceof EngineError && error.engineStatus !== null ? String(error.engineStatus) : 'error'
        metrics.engine(status, seconds(), 0)
        throw error
      }
    },
  }
}
