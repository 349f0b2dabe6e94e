import t from 'tap'
import { EngineError } from '../../../src/errors.ts'
import { watchEngine } from '../../../src/http/ops/engine-watch.ts'
import { createServerMetrics } from '../../../src/http/ops/server-metrics.ts'
import { withinRequest } from '../../../src/http/ops/request-scope.ts'
import type { Engine } from '../../../src/ports/engine.ts'
import { renderMetrics } from '../../../src/http/ops/metrics.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { valueOf } from '../../helpers/metrics.ts'

t.test(
  'each engine request is counted by status with its time and cost; a request asked again is a retry',
  async (t) => {
    const metrics = createServerMetrics()
    t.teardown(() => metrics.stop())
    let calls = 0
    const fake = createFakeEngine({
      fail: () =>
        [
          new EngineError('engine answered 503: busy', 503, { transient: true }),
          new TypeError('no network'),
          new EngineError('gave nothing', null),
          undefined,
        ][calls++],
    })
    const engine = watchEngine(fake, { metrics, pricePerMtok: 2 })
    const request = { model: fake.defaultModel, state: [['message', 'hi']], questions: [] } as never
    await t.rejects(engine.ask(request))
    await t.rejects(engine.ask(request))
    await t.rejects(engine.ask(request))
    await engine.ask(request)
    t.equal(engine.defaultModel, fake.defaultModel, 'the rest of the engine as it was')
    const text = renderMetrics(metrics.snapshot())
    t.equal(valueOf(text, 'judge_engine_requests_total{status="503"}'), 1)
    t.equal(valueOf(text, 'judge_engine_requests_total{status="error"}'), 2, 'no status came back')
    t.equal(valueOf(text, 'judge_engine_requests_total{status="200"}'), 1)
    t.equal(valueOf(text, 'judge_engine_retries_total'), 3)
    t.equal(valueOf(text, 'judge_engine_request_duration_seconds_count'), 4)
    t.ok(valueOf(text, 'judge_engine_cost_usd_total') >= 0)
  },
)

t.test(
  "the engine's id of each request, answered or failed, is kept for the HTTP request whose work asked it; metrics off count nothing",
  async (t) => {
    let calls = 0
    const fake = createFakeEngine({
      fail: () =>
        calls++ === 0
          ? new EngineError('engine answered 400: bad (request req_a)', 400, { requestId: 'req_a' })
          : undefined,
    })
    const withIds: Engine = {
      ...fake,
      ask: async (request, signal) => ({ ...(await fake.ask(request, signal)), requestId: `req_${calls}` }),
    }
    const engine = watchEngine(withIds, { metrics: null, pricePerMtok: 2 })
    const request = { model: fake.defaultModel, state: [['message', 'hi']], questions: [] } as never
    const scope = { engineIds: [] as string[] }
    await withinRequest(scope, async () => {
      await t.rejects(engine.ask(request), /req_a/)
      await engine.ask(request)
    })
    await engine.ask(request)
    t.same(scope.engineIds, ['req_a', 'req_2'], 'both of its requests, and none asked outside it')
  },
)

t.test("an engine's request id holding a secret or breaking the rule of X-Request-Id is not kept", async (t) => {
  const ids = ['token-0123456789', 'req 1', 'req_ok']
  let calls = 0
  const fake = createFakeEngine()
  const withIds: Engine = {
    ...fake,
    ask: async (request, signal) => ({ ...(await fake.ask(request, signal)), requestId: ids[calls++] }),
  }
  const engine = watchEngine(withIds, { metrics: null, pricePerMtok: 2, secrets: [null, 'token-0123456789'] })
  const request = { model: fake.defaultModel, state: [['message', 'hi']], questions: [] } as never
  const scope = { engineIds: [] as string[] }
  await withinRequest(scope, async () => {
    for (const _ of ids) await engine.ask(request)
  })
  t.same(scope.engineIds, ['req_ok'])
})
