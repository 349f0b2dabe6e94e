import t from 'tap'
import { REQUEST_MAX_WAIT_MS, requestPatience, runPatience } from '../../../src/core/pacing/patience.ts'

t.test('a request retries twice, waits at most 5 s at a time, refuses longer, all within its bound', async (t) => {
  t.same(requestPatience(30_000), {
    retries: 2,
    maxWaitMs: REQUEST_MAX_WAIT_MS,
    refuseLonger: true,
    deadlineMs: 30_000,
    giveUpMs: null,
    minBackoffMs: 500,
    maxBackoffMs: 5000,
  })
})

t.test(
  'a run retries without count, waits as long as ENGINE_MAX_WAIT_S, and gives up after ENGINE_GIVE_UP_S',
  async (t) => {
    t.same(runPatience(300_000, 120_000), {
      retries: Infinity,
      maxWaitMs: 300_000,
      refuseLonger: false,
      deadlineMs: null,
      giveUpMs: 120_000,
      minBackoffMs: 500,
      maxBackoffMs: 30_000,
    })
    t.equal(runPatience(10_000, 1).maxBackoffMs, 10_000, 'a backoff never longer than the longest wait')
  },
)
