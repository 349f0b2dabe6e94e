import type { BatchState } from '../../ports/engine.ts'

/** The provider states in which a batch has ended: nothing more will be answered in it. */
const ENDED_STATES: readonly string[] = ['completed', 'failed', 'expired', 'cancelled']

/** Whether a batch in this state has ended. */
export function hasEnded(state: string): boolean {
  return ENDED_STATES.includes(state)
}

/** The provider's request counts of batches, summed: for a progress line. */
export interface BatchFigures {
  readonly batches: number
  readonly ended: number
  readonly total: number
  readonly completed: number
  readonly failed: number
}

/** The figures of batches as the provider last reported them. */
export function batchFigures(
  batches: readonly {
    readonly state: BatchState | string
    readonly total: number
    readonly completed: number
    readonly failed: number
  }[],
): BatchFigures {
  return {
    batches: batches.length,
    ended: batches.filter((b) => hasEnded(b.state)).length,
    total: batches.reduce((n, b) => n + b.total, 0),
    completed: batches.reduce((n, b) => n + b.completed, 0),
    failed: batches.reduce((n, b) => n + b.failed, 0),
  }
}

/** The wait before the next poll: `first` ms, doubling each poll up to `most`. */
export function pollDelay(polls: number, first: number, most = 60_000): number {
  return Math.min(Math.max(first, most), first * 2 ** Math.min(polls, 30))
}
