import type { RunningRun } from '../core/batch/running.ts'
import { table, usd } from './text.ts'

/**
 * The runs whose batches are pending at the provider, as `judge runs` lists them above the runs:
 * running, with the provider's request counts as last seen; '' when there are none.
 */
export function runningText(running: readonly RunningRun[]): string {
  if (running.length === 0) return ''
  const rows = running.map((r) => [
    r.run_id,
    r.judgment,
    r.status,
    r.batches.join(' '),
    r.states.join(' '),
    `${r.completed}/${r.total}`,
    String(r.failed),
    usd(r.estimate),
    r.submitted_at,
    r.polled_at,
  ])
  const header = ['run', 'judgment', 'status', 'batches', 'state', 'done', 'failed', 'estimate', 'submitted', 'seen']
  return (
    "running through the bulk lane (the provider's request counts as last seen; " +
    'the same `judge run --batch` collects them):\n' +
    table(header, rows) +
    '\n'
  )
}
