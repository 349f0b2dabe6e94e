import type { BatchRecord } from '../../ports/batch-store.ts'

/**
 * A run whose batches are pending at the provider, as `judge runs` and the runs page show it: running,
 * with the provider's request counts over its batches as last seen, when they were submitted and their ids.
 */
export interface RunningRun {
  readonly run_id: string
  readonly judgment: string
  readonly model: string
  readonly status: 'running'
  /** The provider's ids of its batches (judge's tag for one not created yet), oldest first. */
  readonly batches: readonly string[]
  /** Each batch's state, in the order of `batches`. */
  readonly states: readonly string[]
  readonly total: number
  readonly completed: number
  readonly failed: number
  /** Estimated USD at the batch price. */
  readonly estimate: number
  /** When its first batch was recorded (UTC, no zone offset). */
  readonly submitted_at: string
  /** When its counts were last seen (UTC, no zone offset). */
  readonly polled_at: string
}

/** The runs of the batches whose answers have not landed, one per run id, newest first. */
export function runningRuns(batches: readonly BatchRecord[]): RunningRun[] {
  const byRun = new Map<string, BatchRecord[]>()
  for (const batch of [...batches].reverse()) {
    if (batch.landedAt !== null) continue
    const run = byRun.get(batch.runId)
    if (run === undefined) byRun.set(batch.runId, [batch])
    else run.push(batch)
  }
  return [...byRun.values()].map(runningRun).reverse()
}

function runningRun(batches: readonly BatchRecord[]): RunningRun {
  const [first] = batches
  const sum = (field: 'total' | 'completed' | 'failed' | 'estimate') => batches.reduce((n, b) => n + b[field], 0)
  return {
    run_id: first.runId,
    judgment: first.judgment,
    model: first.model,
    status: 'running',
    batches: batches.map((b) => b.batchId ?? b.tag),
    states: batches.map((b) => b.state),
    total: sum('total'),
    completed: sum('completed'),
    failed: sum('failed'),
    estimate: sum('estimate'),
    submitted_at: first.createdAt,
    polled_at: batches
      .map((b) => b.updatedAt)
      .sort()
      .at(-1)!,
  }
}
