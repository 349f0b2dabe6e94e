import t from 'tap'
import { runningRuns } from '../../../src/core/batch/running.ts'
import { batchRecord } from '../../helpers/contracts/batch-store.ts'

t.test('pending batches make one running run per run id, newest first, their counts summed', async (t) => {
  const older = '20260101T000000Z-aaaaaa'
  const newer = '20260102T000000Z-bbbbbb'
  // As the store lists them: newest first.
  const batches = [
    batchRecord({
      tag: 't4',
      runId: newer,
      batchId: null,
      state: 'recorded',
      total: 5,
      createdAt: '2026-01-02T00:00:00.000',
    }),
    batchRecord({
      tag: 't3',
      runId: older,
      batchId: 'batch_2',
      state: 'in_progress',
      total: 10,
      completed: 4,
      failed: 1,
      estimate: 0.5,
      createdAt: '2026-01-01T00:00:00.000',
      updatedAt: '2026-01-01T00:05:00.000',
    }),
    batchRecord({
      tag: 't2',
      runId: older,
      batchId: 'batch_1',
      state: 'completed',
      total: 6,
      completed: 6,
      updatedAt: '2026-01-01T00:03:00.000',
    }),
    batchRecord({ tag: 't1', runId: 'landed', batchId: 'batch_0', landedAt: '2026-01-01T00:00:00.000' }),
  ]
  t.same(runningRuns(batches), [
    {
      run_id: newer,
      judgment: 'spam',
      model: 'jev-1',
      status: 'running',
      batches: ['t4'],
      states: ['recorded'],
      total: 5,
      completed: 0,
      failed: 0,
      estimate: 0.25,
      submitted_at: '2026-01-02T00:00:00.000',
      polled_at: '2026-01-01T00:00:00.000',
    },
    {
      run_id: older,
      judgment: 'spam',
      model: 'jev-1',
      status: 'running',
      batches: ['batch_1', 'batch_2'],
      states: ['completed', 'in_progress'],
      total: 16,
      completed: 10,
      failed: 1,
      estimate: 0.75,
      submitted_at: '2026-01-01T00:00:00.000',
      polled_at: '2026-01-01T00:05:00.000',
    },
  ])
  t.same(runningRuns([]), [])
})
