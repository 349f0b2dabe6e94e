import t from 'tap'
import { createHealth } from '../../../src/core/pacing/health.ts'

t.test(
  'trouble is the time since the first failure after a success, less the waits the engine asked for',
  async (t) => {
    const health = createHealth(10_000)
    t.equal(health.givenUp(1_000_000, 1000), false, 'healthy')
    health.failed(0)
    health.failed(500)
    t.equal(health.failing(), 2)
    t.equal(health.givenUp(1000, 1000), false)
    t.equal(health.givenUp(1001, 1000), true)
    health.excuse(4000)
    t.equal(health.givenUp(5000, 1000), false, "a Retry-After is the engine's schedule, not trouble")
    health.excuse(60_000)
    t.equal(health.givenUp(11_001, 1000), true, 'excused at most the ceiling in all')
    t.equal(health.givenUp(11_001, null), false, 'no budget, never given up')
    health.succeeded()
    t.equal(health.failing(), 0)
    t.equal(health.givenUp(99_999, 1000), false)
  },
)
