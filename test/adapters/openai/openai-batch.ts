import t, { type Test } from 'tap'
import { createOpenAi, type OpenAiOptions } from '../../../src/adapters/openai/openai.ts'
import { READ_REPEAT } from '../../../src/adapters/engine-repeat.ts'
import type { BatchItem, BatchLane, EngineRequest } from '../../../src/ports/engine.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'
import type { BatchBehaviour } from '../../helpers/openai-batch-server.ts'
import { startOpenAiServer, type OpenAiServer, type OpenAiServerOptions } from '../../helpers/openai-server.ts'
import { batchStatus } from '../../helpers/batch-status.ts'

const MODEL = 'qwen2.5-7b-instruct'

const request = (message: string, questions = QUESTIONS): EngineRequest => ({
  model: MODEL,
  state: { message },
  questions,
})

const ITEMS: BatchItem[] = ['alpha', 'bravo', 'charlie', 'delta'].map((key) => ({
  key,
  request: request(`a message called ${key}`),
}))

async function serve(t: Test, options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const server = await startOpenAiServer(options)
  t.teardown(() => server.close())
  return server
}

function lane(server: OpenAiServer, options: Partial<OpenAiOptions> = {}): BatchLane {
  return createOpenAi({ url: server.url, model: MODEL, ...options }).batch!
}

/** Uploads the items as one pack and creates its batch: the batch's status. */
async function submit(bulk: BatchLane, items: readonly BatchItem[], tag = 'run-1') {
  const [pack] = bulk.pack(items)
  return bulk.create(await bulk.upload(pack), tag)
}

const calls = (server: OpenAiServer, method: string, path: RegExp) =>
  server.requests.filter((r) => r.method === method && path.test(r.path)).length

t.test('a pack line is the per-request lane body, byte for byte, under the custom id key:question', async (t) => {
  const server = await serve(t)
  const posted: string[] = []
  const fetch = ((url: string, init: RequestInit) => {
    posted.push(init.body as string)
    return globalThis.fetch(url, init)
  }) as typeof globalThis.fetch
  const engine = createOpenAi({ url: server.url, model: MODEL, fetch })
  await engine.ask(ITEMS[0].request)
  const [pack] = engine.batch!.pack([ITEMS[0]])
  t.equal(pack.lines, 3)
  const text = server.batches.files.get(await engine.batch!.upload(pack))!.text
  t.equal(Buffer.byteLength(text), pack.bytes, "the bytes the pack counted are the upload's")
  t.same(
    text.split('\n'),
    [
      ...QUESTIONS.map(
        (_, i) => `{"custom_id":"alpha:${i}","method":"POST","url":"/v1/chat/completions","body":${posted[i]}}`,
      ),
      '',
    ],
    'one line per question, each ended by a line break',
  )
})

t.test("packs split by the provider's limits on requests and bytes, an item's questions together", async (t) => {
  const server = await serve(t)
  const byRequests = lane(server, { batch: { maxRequests: 7 } }).pack(ITEMS)
  t.same(
    byRequests.map((p) => [p.items.map((i) => i.key), p.lines]),
    [
      [['alpha', 'bravo'], 6],
      [['charlie', 'delta'], 6],
    ],
  )
  const three = lane(server).pack(ITEMS.slice(0, 3))[0].bytes
  const byBytes = lane(server, { batch: { maxBytes: three } }).pack(ITEMS)
  t.same(
    byBytes.map((p) => p.items.length),
    [3, 1],
  )
  t.ok(
    byBytes.every((p) => p.bytes <= three),
    'no pack over the bytes',
  )
  t.same(lane(server).pack([]), [], 'nothing to send, no pack')
  t.throws(() => lane(server, { batch: { maxRequests: 2 } }).pack(ITEMS), {
    name: 'EngineError',
    message:
      /^batch item alpha takes 3 requests and \d+ bytes, over a batch's limit of 2 requests and 209715200 bytes$/,
  })
  t.throws(() => lane(server).pack([{ key: 'not a key', request: ITEMS[0].request }]), {
    message: 'a batch item\'s key must match ^[A-Za-z0-9_-]{1,48}$, not "not a key"',
  })
})

t.test('an upload is a multipart form with purpose batch and the JSONL file, sent with the key', async (t) => {
  const server = await serve(t, { expectKey: 'sk-batch' })
  const bulk = lane(server, { apiKey: 'sk-batch' })
  const [pack] = bulk.pack(ITEMS)
  const id = await bulk.upload(pack)
  const file = server.batches.files.get(id)
  t.match(file, { purpose: 'batch', filename: 'judge-batch.jsonl' })
  t.equal(file!.text.split('\n').length - 1, pack.lines, 'one line per request, the text written at the upload')
  t.equal(Buffer.byteLength(file!.text), pack.bytes)
  const sent = server.requests.at(-1)!
  t.match(sent, { method: 'POST', path: '/v1/files', headers: { authorization: 'Bearer sk-batch' } })
  t.match(sent.headers['content-type'], /^multipart\/form-data; boundary=/)
})

t.test('a batch is created over the file, for chat completions within 24h, tagged in its metadata', async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 3 }) })
  const bulk = lane(server)
  const created = await submit(bulk, ITEMS, 'run-7-pack-0')
  t.same(server.requests.at(-1)!.body, {
    input_file_id: created.inputFileId,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    metadata: { judge_batch: 'run-7-pack-0' },
  })
  t.same(created, batchStatus({ id: 'batch_1', state: 'validating', inputFileId: 'file-1', tag: 'run-7-pack-0' }))
  t.same(
    [await bulk.retrieve('batch_1'), await bulk.retrieve('batch_1')].map((s) => s.state),
    ['in_progress', 'finalizing'],
  )
  t.match(await bulk.retrieve('batch_1'), {
    state: 'completed',
    total: 12,
    completed: 12,
    failed: 0,
    outputFileId: 'file-2',
    errorFileId: null,
  })
})

t.test("collected answers are the per-request lane's, assembled as ask assembles them", async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 0 }) })
  const engine = createOpenAi({ url: server.url, model: MODEL })
  const done = await submit(engine.batch!, ITEMS)
  t.equal(done.state, 'completed', 'no polls: done as created')
  const outcomes = await engine.batch!.collect(done, ITEMS)
  for (const [i, item] of ITEMS.entries())
    t.same(outcomes[i], { key: item.key, ok: true, result: await engine.ask(item.request) }, item.key)
})

const FAILING: BatchBehaviour['line'] = (id) =>
  id === 'bravo:1'
    ? { status: 500, message: 'The server had an error' }
    : id === 'charlie:2'
      ? { code: 'invalid_prompt', message: 'the prompt was refused' }
      : id.startsWith('delta:') && id !== 'delta:0'
        ? 'unanswered'
        : undefined

t.test('an expired batch: answered items ok, failed lines and expired ones by reason', async (t) => {
  const server = await serve(t, { batch: () => ({ end: 'expired', line: FAILING }) })
  const bulk = lane(server)
  const status = await bulk.retrieve((await submit(bulk, ITEMS)).id)
  t.match(status, { state: 'expired', total: 12, completed: 8, failed: 4 })
  const outcomes = await bulk.collect(status, ITEMS)
  t.match(outcomes, [
    { key: 'alpha', ok: true },
    { key: 'bravo', ok: false, reason: 'failed: 500 The server had an error' },
    { key: 'charlie', ok: false, reason: 'failed: invalid_prompt the prompt was refused' },
    { key: 'delta', ok: false, reason: 'expired' },
  ])
  t.equal(calls(server, 'GET', /^\/v1\/files\/file-\d+\/content$/), 2, 'the output and the error file')
})

t.test("a completed batch's unanswered lines are missing; a provider's cancel leaves them cancelled", async (t) => {
  const completed = await serve(t, { batch: () => ({ line: FAILING }) })
  const bulk = lane(completed)
  const status = await bulk.retrieve((await submit(bulk, ITEMS)).id)
  t.match(await bulk.collect(status, ITEMS), [{ ok: true }, { ok: false }, { ok: false }, { reason: 'missing' }])
  const cancelled = await serve(t, { batch: () => ({ polls: 2, end: 'cancelled', line: FAILING }) })
  const other = lane(cancelled)
  const id = (await submit(other, ITEMS)).id
  t.equal((await other.retrieve(id)).state, 'finalizing')
  const ended = await other.retrieve(id)
  t.equal(ended.state, 'cancelled')
  t.match(await other.collect(ended, ITEMS), [{ ok: true }, { ok: false }, { ok: false }, { reason: 'cancelled' }])
})

t.test('a batch that fails validation says why and has no files: every item missing', async (t) => {
  const server = await serve(t, { batch: () => ({ end: 'failed' }) })
  const bulk = lane(server)
  const status = await bulk.retrieve((await submit(bulk, ITEMS)).id)
  t.match(status, { state: 'failed', outputFileId: null, errorFileId: null, error: 'invalid_request the batch failed' })
  t.same(
    (await bulk.collect(status, ITEMS)).map((o) => o.ok || o.reason),
    ['missing', 'missing', 'missing', 'missing'],
  )
  const reading = calls(server, 'GET', /\/content$/)
  t.equal(reading, 0, 'no file to read')
})

t.test('cancel asks the provider; the batch ends cancelled, and a batch that ended cannot be', async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 5 }) })
  const bulk = lane(server)
  const { id } = await submit(bulk, ITEMS)
  t.equal((await bulk.cancel(id)).state, 'cancelling')
  t.equal(server.requests.at(-1)!.path, `/v1/batches/${id}/cancel`)
  const ended = await bulk.retrieve(id)
  t.match(ended, { state: 'cancelled', failed: 12 })
  t.same(
    (await bulk.collect(ended, ITEMS)).map((o) => o.ok || o.reason),
    ['cancelled', 'cancelled', 'cancelled', 'cancelled'],
  )
  await t.rejects(bulk.cancel(id), {
    name: 'EngineError',
    engineStatus: 409,
    transient: false,
    message: 'engine answered 409: Cannot cancel a batch with status cancelled.',
  })
})

t.test("find pages through the provider's list, newest first, to the batch with the tag", async (t) => {
  const server = await serve(t, { batch: () => ({ polls: 2 }) })
  const bulk = lane(server, { batch: { pageSize: 2 } })
  for (const n of [1, 2, 3, 4, 5]) await submit(bulk, [ITEMS[0]], `run-${n}`)
  const listing = () => calls(server, 'GET', /^\/v1\/batches\?/)
  t.match(await bulk.find('run-4'), { id: 'batch_4', tag: 'run-4', state: 'validating' })
  t.equal(listing(), 1, 'on the first page')
  t.match(await bulk.find('run-1'), { id: 'batch_1', tag: 'run-1' })
  t.equal(listing(), 4, 'three pages more')
  t.match(server.requests.at(-1)!.path, '/v1/batches?limit=2&after=batch_2')
  t.equal(await bulk.find('run-9'), null, 'none tagged so')
})

t.test('find stops on a list that does not move on, or lists nothing it can read', async (t) => {
  const page = { data: [{ id: 'batch_x', status: 'completed', metadata: null }], has_more: true }
  const stuck = await serve(t, {
    reply: (r) => (r.path.startsWith('/v1/batches?') ? { status: 200, body: page } : undefined),
  })
  t.equal(await lane(stuck).find('run-1'), null)
  t.equal(stuck.requests.length, 2, 'the second page was the first again')
  const odd = await serve(t, {
    reply: (r) =>
      r.path.startsWith('/v1/batches?') ? { status: 200, body: { data: 'none', has_more: true } } : undefined,
  })
  t.equal(await lane(odd).find('run-1'), null)
})

t.test('HTTP failures are EngineErrors as the per-request lane gives them, the key scrubbed', async (t) => {
  const busy = await serve(t, { failTimes: 1, status: 429, retryAfter: '3' })
  const [pack] = lane(busy).pack(ITEMS)
  await t.rejects(lane(busy).upload(pack), {
    name: 'EngineError',
    engineStatus: 429,
    transient: true,
    retryAfterMs: 3000,
  })
  const down = await serve(t, { failTimes: 99, status: 503 })
  const waits: number[] = []
  const repeat = { ...READ_REPEAT, random: () => 0, sleep: async (ms: number) => void waits.push(ms) }
  await t.rejects(lane(down, { batch: { repeat } }).retrieve('batch_1'), {
    name: 'EngineError',
    engineStatus: 503,
    transient: true,
  })
  t.equal(down.requests.length, 5, 'a poll is tried five times in all')
  t.same(waits, [500, 1000, 2000, 4000], 'after the backoff, doubling')
  const echo = await serve(t, {
    reply: () => ({ status: 401, body: { error: { message: 'Incorrect API key provided: sk-secret' } } }),
  })
  await t.rejects(lane(echo, { apiKey: 'sk-secret' }).create('file-1', 'run-1'), {
    engineStatus: 401,
    transient: false,
    message: 'engine answered 401: Incorrect API key provided: [redacted]',
  })
  const plain = await serve(t)
  await t.rejects(lane(plain).retrieve('batch_404'), { engineStatus: 404, message: /No batch found/ })
  await t.rejects(lane(plain).create('file-404', 'run-1'), { engineStatus: 404, message: /No such File object/ })
  const aborted = AbortSignal.abort()
  const ended = await lane(plain).retrieve((await submit(lane(plain), ITEMS)).id)
  await t.rejects(lane(plain).collect(ended, ITEMS, aborted), {
    message: 'the engine request was cancelled',
  })
})

t.test('answers it cannot read are unusable, saying what is wrong', async (t) => {
  const server = await serve(t, {
    reply: (r) =>
      r.path === '/v1/files'
        ? { status: 200, body: { object: 'file' } }
        : r.path === '/v1/batches/b1'
          ? { status: 200, body: { id: 'b1', status: 'paused' } }
          : r.path === '/v1/batches/b2'
            ? { status: 200, body: { status: 'completed' } }
            : undefined,
  })
  const bulk = lane(server)
  await t.rejects(bulk.upload(bulk.pack(ITEMS)[0]), {
    name: 'EngineError',
    message: `the engine's answer is unusable: the uploaded file's field "id" is missing`,
  })
  await t.rejects(bulk.retrieve('b1'), {
    message: `the engine's answer is unusable: batch b1: field "status" is "paused"`,
  })
  await t.rejects(bulk.retrieve('b2'), {
    message: `the engine's answer is unusable: the batch's field "id" is missing`,
  })
})

t.test('a line of a file longer than ENGINE_MAX_RESPONSE_BYTES stops the read', async (t) => {
  // Twenty long alternatives make each answer a few KiB, as a real one with 20 top_logprobs is.
  const top = () => Array.from({ length: 20 }, (_, i) => ({ token: `${'x'.repeat(80)}${i}`, logprob: -i }))
  const server = await serve(t, { batch: () => ({ polls: 0 }), top })
  const bulk = lane(server, { maxResponseBytes: 1024 })
  await t.rejects(bulk.collect(await submit(bulk, ITEMS), ITEMS), {
    name: 'EngineError',
    message: "the engine's answer was over 1 KiB (ENGINE_MAX_RESPONSE_BYTES), so it was not read",
  })
})
