import t from 'tap'
import { batchFigures, hasEnded, pollDelay } from '../../../src/core/batch/progress.ts'

t.test('a batch has ended once completed, failed, expired or cancelled', async (t) => {
  for (const state of ['completed', 'failed', 'expired', 'cancelled']) t.ok(hasEnded(state), state)
  for (const state of ['recorded', 'uploaded', 'validating', 'in_progress', 'finalizing', 'cancelling'])
    t.notOk(hasEnded(state), state)
})

t.test('the figures sum the batches and count those ended', async (t) => {
  t.same(
    batchFigures([
      { state: 'completed', total: 4, completed: 3, failed: 1 },
      { state: 'in_progress', total: 6, completed: 2, failed: 0 },
    ]),
    { batches: 2, ended: 1, total: 10, completed: 5, failed: 1 },
  )
})

t.test('polls wait the first interval, doubling up to a minute', async (t) => {
  t.same(
    [0, 1, 2, 3].map((n) => pollDelay(n, 1000)),
    [1000, 2000, 4000, 8000],
  )
  t.equal(pollDelay(10, 1000), 60_000)
  t.equal(pollDelay(100, 1000), 60_000)
  t.equal(pollDelay(3, 90_000), 90_000, 'a first interval above a minute is kept')
})
