import t, { type Test } from 'tap'
import { createAnthropic } from '../../../src/adapters/anthropic/anthropic.ts'
import type { BatchItem, BatchLane } from '../../../src/ports/engine.ts'
import {
  startAnthropicServer,
  type AnthropicServer,
  type AnthropicServerOptions,
} from '../../helpers/anthropic-server.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'
import { inTurn } from '../../helpers/openai-server.ts'
import { batchStatus } from '../../helpers/batch-status.ts'

const MODEL = 'claude-haiku-4-5-20251001'
const items: BatchItem[] = ['a', 'b'].map((key) => ({
  key,
  request: { model: MODEL, state: { message: `row ${key}` }, questions: QUESTIONS },
}))

async function serve(t: Test, options: AnthropicServerOptions = {}): Promise<AnthropicServer> {
  const server = await startAnthropicServer(options)
  t.teardown(() => server.close())
  return server
}

const laneOf = (server: AnthropicServer, apiKey = 'sk-ant-local', samples = 1): BatchLane =>
  createAnthropic({ url: server.url, model: MODEL, apiKey, samples }).batch!

async function submitted(lane: BatchLane) {
  const [pack] = lane.pack(items)
  return lane.create(await lane.upload(pack), 'judge-tag-1')
}

t.test('a batch is one POST /v1/messages/batches of the pack, with the key and the version', async (t) => {
  const server = await serve(t, { expectKey: 'sk-ant-local' })
  const lane = laneOf(server)
  const [pack] = lane.pack(items)
  const body = await lane.upload(pack)
  t.equal(JSON.parse(body).requests.length, pack.lines, 'nothing is uploaded: the pack is written as the body')
  t.equal(server.requests.length, 0)
  const status = await lane.create(body, 'judge-tag-1')
  t.match(server.requests[0], {
    method: 'POST',
    path: '/v1/messages/batches',
    headers: { 'x-api-key': 'sk-ant-local', 'anthropic-version': '2023-06-01' },
  })
  t.same(server.requests[0].body, JSON.parse(body))
  t.same(status, batchStatus({ id: 'msgbatch_1', state: 'in_progress', total: 6 }))
})

t.test("polled to its end, its results are the per-request lane's answers", async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 2 }) })
  const lane = laneOf(server)
  const created = await submitted(lane)
  t.equal((await lane.retrieve(created.id)).state, 'in_progress')
  const ended = await lane.retrieve(created.id)
  t.match(ended, { state: 'completed', total: 6, completed: 6, failed: 0 })
  const outcomes = await lane.collect(ended, items)
  const alone = await createAnthropic({ url: server.url, model: MODEL, samples: 1 }).ask(items[0].request)
  t.same(outcomes[0], { key: 'a', ok: true, result: alone }, 'as the same request asked alone')
  t.match(outcomes[1], { key: 'b', ok: true })
  t.ok(
    server.requests.some((r) => r.path === '/v1/messages/batches/msgbatch_1/results'),
    'the results are read at /v1/messages/batches/{id}/results',
  )
})

t.test(
  "with k > 1 each question is k lines at the sampling temperature, read back as the lane's sampled answer",
  async (t) => {
    const server = await serve(t, { drawn: inTurn([0, 1, 1]), batch: () => ({ polls: 0 }) })
    const lane = laneOf(server, 'sk-ant-local', 3)
    const [pack] = lane.pack(items)
    t.equal(pack.lines, 2 * 3 * 3)
    const sent = JSON.parse(await lane.upload(pack)).requests as {
      custom_id: string
      params: { temperature: number }
    }[]
    t.same(
      sent.slice(0, 4).map((r) => r.custom_id),
      ['a_0s0of3', 'a_0s1of3', 'a_0s2of3', 'a_1s0of3'],
    )
    t.ok(
      sent.every((r) => r.params.temperature === 1),
      'at the sampling temperature',
    )
    const ended = await lane.create(await lane.upload(pack), 'tag')
    t.match(ended, { state: 'completed', total: 18, completed: 18 })
    const outcomes = await lane.collect(ended, items)
    const alone = await createAnthropic({ url: server.url, model: MODEL, samples: 3 }).ask(items[0].request)
    t.same(outcomes[0], { key: 'a', ok: true, result: alone }, 'as the same request asked alone')
    t.same(alone.distributions.is_spam, { yes: 0.333333, no: 0.666667 })
    t.match(alone, { requests: 9, facts: { is_spam: { source: 'samples', samples: 3 } } })
    const collected = await laneOf(server, 'sk-ant-local', 1).collect(ended, items)
    t.same(collected[1], outcomes[1], 'read back whatever k the lane collecting them has')
    t.equal(
      laneOf(server, 'sk-ant-local', 3).pack([{ ...items[0], request: { ...items[0].request, samples: 1 } }])[0].lines,
      3,
      "an item's samples: 1 is one line a question",
    )
  },
)

t.test('errored, expired and cancelled requests fail their items by reason; unseen ones are missing', async (t) => {
  const server = await serve(t, {
    batch: () => ({
      polls: 0,
      request: (id) =>
        id === 'a_1' ? { type: 'api_error', message: 'Internal server error' } : id === 'b_2' ? 'expired' : undefined,
    }),
  })
  const lane = laneOf(server)
  const ended = await submitted(lane)
  t.match(ended, { state: 'completed', completed: 4, failed: 2 })
  t.same(
    (await lane.collect(ended, [...items, { ...items[0], key: 'c' }])).map((o) =>
      o.ok ? o.key : `${o.key}: ${o.reason}`,
    ),
    ['a: failed: api_error Internal server error', 'b: expired', 'c: missing'],
  )
  const running = await serve(t)
  const lane2 = laneOf(running)
  const open = await submitted(lane2)
  t.same(
    (await lane2.collect(open, items)).map((o) => !o.ok && o.reason),
    ['missing', 'missing'],
    'a batch without results reads nothing',
  )
})

t.test('cancel: cancelling, then ended with every request cancelled', async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 5 }) })
  const lane = laneOf(server)
  const created = await submitted(lane)
  t.equal((await lane.cancel(created.id)).state, 'cancelling')
  t.match(server.requests.at(-1), { method: 'POST', path: '/v1/messages/batches/msgbatch_1/cancel' })
  const ended = await lane.retrieve(created.id)
  t.match(ended, { state: 'cancelled', failed: 6 })
  t.same(
    (await lane.collect(ended, items)).map((o) => !o.ok && o.reason),
    ['cancelled', 'cancelled'],
  )
})

t.test('find finds nothing: a message batch keeps no tag to find it by', async (t) => {
  const server = await serve(t)
  const lane = laneOf(server)
  await submitted(lane)
  t.equal(await lane.find('judge-tag-1'), null)
  t.equal(server.requests.length, 1, 'and asks nothing')
})

t.test('HTTP failures are EngineErrors as the per-request lane gives them, the key scrubbed', async (t) => {
  const server = await serve(t, { expectKey: 'sk-ant-right' })
  const lane = laneOf(server, 'sk-ant-wrong-7')
  const [pack] = lane.pack(items)
  await t.rejects(lane.create(await lane.upload(pack), 'tag'), {
    name: 'EngineError',
    engineStatus: 401,
    transient: false,
    message: 'engine answered 401: invalid x-api-key [redacted]',
  })
  const good = laneOf(await serve(t))
  await t.rejects(good.retrieve('msgbatch_9'), {
    engineStatus: 404,
    message: 'engine answered 404: no batch msgbatch_9',
  })
  await t.rejects(good.collect({ ...(await submitted(good)), id: 'msgbatch_9', outputFileId: 'x' }, items), {
    name: 'EngineError',
    engineStatus: 404,
  })
})

t.test('the limits split packs: requests per batch and bytes, an item whole', async (t) => {
  const lane = createAnthropic({ url: 'http://127.0.0.1:9', model: MODEL, samples: 1, batch: { maxRequests: 3 } })
    .batch!
  t.same(
    lane.pack(items).map((p) => p.items.map((i) => i.key)),
    [['a'], ['b']],
  )
  const tiny = createAnthropic({ url: 'http://127.0.0.1:9', model: MODEL, samples: 1, batch: { maxBytes: 100 } }).batch!
  t.throws(() => tiny.pack(items), { message: /batch item a takes 3 requests and \d+ bytes, over a batch's limit/ })
})

t.test('a poll and the results answered 529 are tried again after the backoff; the results read once', async (t) => {
  let fail = 0
  const server = await serve(t, {
    batch: () => ({ polls: 1 }),
    reply: (request) =>
      request.method === 'GET' && fail++ % 2 === 0
        ? { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } }
        : undefined,
  })
  const waits: number[] = []
  const repeat = { attempts: 2, minBackoffMs: 10, maxBackoffMs: 10, maxWaitMs: 0, random: () => 0 }
  const lane = createAnthropic({
    url: server.url,
    model: MODEL,
    batch: { repeat: { ...repeat, sleep: async (ms: number) => void waits.push(ms) } },
  }).batch!
  const ended = await lane.retrieve((await submitted(lane)).id)
  t.equal(ended.state, 'completed')
  t.same(
    (await lane.collect(ended, items)).map((o) => o.ok),
    [true, true],
  )
  t.same(waits, [10, 10], 'one wait of the backoff before each second attempt')
  t.equal(server.requests.filter((r) => r.path.endsWith('/results')).length, 2)
})
