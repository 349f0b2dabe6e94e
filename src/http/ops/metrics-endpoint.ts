import { NotFoundError } from '../../errors.ts'
import type { Endpoint } from '../context.ts'
import { mergeSnapshots, METRICS_TYPE, renderMetrics } from './metrics.ts'

/**
 * GET /metrics: the server's series in the Prometheus text format, summed over every worker.
 * 404 when JUDGE_METRICS=off. A worker that does not answer in time is left out, and
 * judge_metrics_workers_missing says how many were.
 */
export const metricsEndpoint: Endpoint = async (ctx) => {
  const metrics = ctx.observer?.metrics
  if (!metrics) throw new NotFoundError('metrics are off (JUDGE_METRICS=off)')
  const others = await metrics.peers.gather()
  const missing =
    `# HELP judge_metrics_workers_missing Workers that did not answer this scrape in time.\n# TYPE ` +
    `judge_metrics_workers_missing gauge\njudge_metrics_workers_missing ${others.missing}\n`
  const body = renderMetrics(mergeSnapshots([metrics.snapshot(), ...others.snapshots])) + missing
  return { status: 200, type: 'json', body, headers: { 'content-type': METRICS_TYPE } }
}
