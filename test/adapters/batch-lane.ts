import t from 'tap'
import { laneSettings, sentText } from '../../src/adapters/batch-lane.ts'
import type { HttpTarget } from '../../src/adapters/engine-http.ts'
import { READ_REPEAT } from '../../src/adapters/engine-repeat.ts'
import { EngineError } from '../../src/errors.ts'

const target: HttpTarget = { endpoint: 'http://x/ask', headers: {}, fetch: globalThis.fetch, timeoutMs: 1000 }
const at = { root: 'http://x', target, apiKey: 'k-1' }
const LIMITS = { maxRequests: 10, maxBytes: 100 }

t.test("a lane's settings: the provider's limits, 10 minutes a transfer and READ_REPEAT unless set", async (t) => {
  t.same(laneSettings(at, {}, LIMITS), {
    limits: LIMITS,
    transfer: { ...target, timeoutMs: 600_000 },
    repeat: READ_REPEAT,
  })
  const repeat = { ...READ_REPEAT, attempts: 2 }
  t.same(laneSettings(at, { maxRequests: 3, maxBytes: 7, transferTimeoutMs: 50, repeat }, LIMITS), {
    limits: { maxRequests: 3, maxBytes: 7 },
    transfer: { ...target, timeoutMs: 50 },
    repeat,
  })
})

t.test("a send's text, or its failure as an EngineError with the key scrubbed", async (t) => {
  t.equal(sentText({ ok: true, value: 'body' }, 'k-1'), 'body')
  t.throws(
    () => sentText({ ok: false, failure: { status: 401, message: 'bad key k-1' } }, 'k-1'),
    new EngineError('bad key [redacted]', 401),
  )
})
