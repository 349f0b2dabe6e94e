import type { Config } from '../../config.ts'
import type { Engine } from '../../ports/engine.ts'
import { watchEngine } from './engine-watch.ts'
import { createObserver, type Observer } from './observe.ts'
import { createServerMetrics } from './server-metrics.ts'

/**
 * The observer a configuration asks for (JUDGE_METRICS, JUDGE_ACCESS_LOG), with the engine wrapper
 * that feeds it: always, since an engine request's span and its engine request id are kept with
 * metrics off too.
 */
export function observerOf(
  config: Config,
  options: { readonly accessLog?: (line: string) => void; readonly now?: () => Date } = {},
): Observer & { readonly watchEngine: (engine: Engine) => Engine } {
  const metrics = config.observe.metrics ? createServerMetrics(undefined, config.workers > 1) : null
  const write = options.accessLog ?? ((line: string) => void process.stdout.write(`${line}\n`))
  const observer = createObserver({
    metrics,
    accessLog: config.observe.accessLog === 'json' ? write : null,
    now: options.now,
  })
  return {
    ...observer,
    watchEngine: (engine: Engine) =>
      watchEngine(engine, {
        metrics,
        pricePerMtok: config.engine.pricePerMtok,
        secrets: [config.serverToken, config.engine.apiKey],
      }),
  }
}
