import { family, type Family, type FamilySnapshot } from './metrics.ts'
import type { Gathered } from './metrics-cluster.ts'
import { joinPeers } from './metrics-cluster.ts'
import { createProcessMetrics, type ProcessMetrics } from './process-metrics.ts'

/** Seconds: from a fast cached answer (well under a millisecond) to a slow engine call. */
const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** Methods kept as they are in labels; any other becomes `other`, so a client cannot grow the series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])

/** One answer to count: its judgment, question and where it came from (`store` or `engine`). */
export type AnswerKey = readonly [judgment: string, question: string, source: 'store' | 'engine']

/**
 * What the server counts. Every label value comes from the route table, the served specs, the
 * verdict kinds or a status code: never from a URL or a body as sent.
 */
export interface ServerMetrics {
  /** A request answered: its method, route pattern (`none` when no route matched), status and duration. */
  request(method: string, route: string, status: number, seconds: number): void
  answers(keys: readonly AnswerKey[]): void
  /**
   * One engine request: its HTTP status (or `error` when none came back), duration and cost; the cost of a simulated
   * answer (an engine that spends nothing) is counted apart, as what it would have cost.
   */
  engine(status: string, seconds: number, costUsd: number, simulated?: boolean): void
  /** An engine request asked again after a failure. */
  retry(): void
  verdict(judgment: string, verdict: string): void
  conflict(): void
  /** A shadow judgment's end: `compared`, `skipped` or `failed`. */
  shadow(result: string): void
  /** This process's series, the process figures sampled now. */
  snapshot(): FamilySnapshot[]
  /** The other workers of a cluster (none outside one), whose series a scrape adds. */
  readonly peers: { gather(): Promise<Gathered> }
  stop(): void
}

/** The server's metrics, counted in this process (docs/deploy.md lists them). */
export function createServerMetrics(
  processMetrics: ProcessMetrics = createProcessMetrics(),
  clustered = false,
): ServerMetrics {
  const requests = family({
    name: 'judge_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    type: 'counter',
    labels: ['method', 'route', 'status'],
  })
  const durations = family({
    name: 'judge_http_request_duration_seconds',
    help: "Time from a request's arrival to its response's end, by route pattern.",
    type: 'histogram',
    labels: ['route'],
    buckets: SECONDS,
  })
  const answers = family({
    name: 'judge_answers_total',
    help: 'Answers given, by judgment, question and source (store or engine).',
    type: 'counter',
    labels: ['judgment', 'question', 'source'],
  })
  const engine = family({
    name: 'judge_engine_requests_total',
    help: 'Requests sent to the engine, by HTTP status (error: none came back).',
    type: 'counter',
    labels: ['status'],
  })
  const engineTime = family({
    name: 'judge_engine_request_duration_seconds',
    help: 'Time of each engine request.',
    type: 'histogram',
    labels: [],
    buckets: SECONDS,
  })
  const retries = family({
    name: 'judge_engine_retries_total',
    help: 'Engine requests asked again after a failure.',
    type: 'counter',
    labels: [],
  })
  const cost = family({
    name: 'judge_engine_cost_usd_total',
    help: 'Engine spend in USD, by the price per million tokens configured.',
    type: 'counter',
    labels: [],
  })
  const simulatedCost = family({
    name: 'judge_engine_simulated_cost_usd_total',
    help: "What the simulated engine's answers would have cost in USD, at the price configured; nothing was spent.",
    type: 'counter',
    labels: [],
  })
  const verdicts = family({
    name: 'judge_verdicts_total',
    help: 'Review verdicts recorded, by judgment and verdict.',
    type: 'counter',
    labels: ['judgment', 'verdict'],
  })
  const conflicts = family({
    name: 'judge_verdict_conflicts_total',
    help: 'Verdicts refused with 409: the row is not offered as that kind any more.',
    type: 'counter',
    labels: [],
  })
  const shadows = family({
    name: 'judge_shadow_judgments_total',
    help: 'Shadow judgments ended, by result (compared, skipped, failed).',
    type: 'counter',
    labels: ['result'],
  })
  const all: Family[] = [
    requests,
    durations,
    answers,
    engine,
    engineTime,
    retries,
    cost,
    simulatedCost,
    verdicts,
    conflicts,
    shadows,
  ]
  // Families with no labels show 0 from the start, so that rate() and alerts see them before the first event.
  for (const f of [retries, cost, simulatedCost, conflicts]) f.add([], 0)
  const snapshot = () => [...all.map((f) => f.snapshot()), ...processMetrics.sample()]
  const peers = joinPeers(snapshot, clustered)
  return {
    request(method, route, status, seconds) {
      requests.add([METHODS.has(method) ? method : 'other', route, String(status)])
      durations.observe([route], seconds)
    },
    answers(keys) {
      for (const key of keys) answers.add(key)
    },
    engine(status, seconds, usd, simulated = false) {
      engine.add([status])
      engineTime.observe([], seconds)
      if (usd > 0) (simulated ? simulatedCost : cost).add([], usd)
    },
    retry: () => retries.add([]),
    verdict: (judgment, verdict) => verdicts.add([judgment, verdict]),
    conflict: () => conflicts.add([]),
    shadow: (result) => shadows.add([result]),
    snapshot,
    peers,
    stop() {
      processMetrics.stop()
      peers.leave()
    },
  }
}
