import t from 'tap'
import type { Test } from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type TextMapPropagator,
} from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base'
import { readConfig } from '../../../src/config.ts'
import { createHandler } from '../../../src/http/handler.ts'
import { failed, startRequestSpan, traced, tracer } from '../../../src/http/ops/tracing.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const ROW = { path: 'spam.judge.yaml', row: { message: 'win a prize now' } }

// Before any SDK is registered: the API's no-op tracer, and nothing kept.
t.test('without an SDK nothing is traced: no request span, and a traced work runs as it is', async (t) => {
  t.equal(startRequestSpan({}, 'POST', '/v1/judge', '/v1/judge', 'id'), null)
  const none = () => ({})
  const same = (text: string) => text
  t.equal(await traced('judge', {}, async () => 7, none, same), 7)
  t.notOk(tracer().startSpan('x').isRecording())
  await t.rejects(
    traced('judge', {}, async () => Promise.reject(new Error('no')), none, same),
    /no/,
  )
})

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
const manager = new AsyncLocalStorageContextManager().enable()

t.test('with an SDK registered', async (t) => {
  context.setGlobalContextManager(manager)
  trace.setGlobalTracerProvider(provider)
  t.teardown(() => {
    trace.disable()
    context.disable()
  })
  t.test('the tracer is the one of the provider registered now', async (t) => {
    t.equal(tracer(), tracer())
    t.ok(tracer().startSpan('x').isRecording())
  })
  t.beforeEach(() => exporter.reset())

  t.test(
    "a judgment that asks the engine nests its engine call under the judgment under the request, with the engine's request id; a cached one is the request alone",
    async (t) => {
      const engine = await systemOne(t)
      const lines: string[] = []
      const server = await startJudgeServer(
        t,
        t.testdir({ 'spam.judge.yaml': SPAM_YAML }),
        { ...engine.env, JUDGE_ACCESS_LOG: 'json' },
        { accessLog: (line) => lines.push(line) },
      )
      const asked = await server.post('/v1/judge', ROW, { 'x-request-id': 'asking' })
      t.equal(asked.status, 200)
      await server.running.handler.idle(1000)
      const [request, judgment, call] = ['POST /v1/judge', 'judge', 'engine.ask'].map((name) => only(t, name))
      t.equal(request.kind, SpanKind.SERVER)
      t.match(request.attributes, {
        'http.request.method': 'POST',
        'http.route': '/v1/judge',
        'url.path': '/v1/judge',
        'http.response.status_code': 200,
        'judge.request_id': 'asking',
        'judge.answered_by': 'full',
      })
      t.equal(judgment.parentSpanContext?.spanId, request.spanContext().spanId, 'the judgment within the request')
      t.equal(call.parentSpanContext?.spanId, judgment.spanContext().spanId, 'the engine call within the judgment')
      t.equal(new Set([request, judgment, call].map((s) => s.spanContext().traceId)).size, 1, 'one trace')
      t.match(judgment.attributes, {
        'judge.judgments': ['spam'],
        'judge.cached': false,
        'judge.answers.cached': 0,
        'judge.log': false,
      })
      t.ok((judgment.attributes['judge.answers.asked'] as number) > 0)
      t.ok((judgment.attributes['judge.questions'] as string[]).includes('spam.is_spam'))
      t.equal(call.kind, SpanKind.CLIENT)
      t.match(call.attributes, {
        'gen_ai.request.model': String,
        'gen_ai.response.model': String,
        'gen_ai.usage.input_tokens': Number,
        'gen_ai.usage.output_tokens': Number,
        'judge.cost_usd': Number,
        'judge.engine.requests': 1,
        'judge.engine.request_id': 'req_1',
        'judge.retry': false,
      })
      t.ok((call.attributes['judge.questions'] as string[]).includes('is_spam'))
      t.match(
        JSON.parse(lines[0]),
        { request_id: 'asking', engine_request_ids: ['req_1'] },
        "the access log names the engine's request",
      )

      exporter.reset()
      t.equal((await server.post('/v1/judge', ROW)).status, 200)
      await server.running.handler.idle(1000)
      t.same(
        exporter.getFinishedSpans().map((s) => s.name),
        ['judge', 'POST /v1/judge'],
        'a stored answer is judged from the store, asking nothing',
      )
      t.match(JSON.parse(lines[1]), { by: 'full', engine_request_ids: [] })
      exporter.reset()
      t.equal((await server.post('/v1/judge', ROW)).status, 200)
      await server.running.handler.idle(1000)
      const spans = exporter.getFinishedSpans()
      t.same(
        spans.map((s) => s.name),
        ['POST /v1/judge'],
        'the same body again: its kept reply, and no judgment run',
      )
      t.match(spans[0].attributes, { 'judge.answered_by': 'fast', 'http.response.status_code': 200 })
      t.match(JSON.parse(lines[2]), { by: 'fast', engine_request_ids: [] })

      exporter.reset()
      t.equal((await server.post('/v1/judge', { ...ROW, log: true })).status, 200)
      await server.running.handler.idle(1000)
      t.match(
        only(t, 'judge').attributes,
        { 'judge.cached': true, 'judge.answers.asked': 0, 'judge.log': true },
        'a judgment from the store says so',
      )
      t.equal(exporter.getFinishedSpans().filter((s) => s.name === 'engine.ask').length, 0)
    },
  )

  t.test(
    "an engine failure marks the engine call, the judgment and the request failed, and keeps the engine's request id in each place",
    async (t) => {
      const engine = await systemOne(t, { failTimes: 1, status: 400, errorMessage: 'bad request' })
      const lines: string[] = []
      const server = await startJudgeServer(
        t,
        t.testdir({ 'spam.judge.yaml': SPAM_YAML }),
        { ...engine.env, JUDGE_ACCESS_LOG: 'json' },
        { accessLog: (line) => lines.push(line) },
      )
      const res = await server.post('/v1/judge', ROW)
      t.equal(res.status, 502)
      t.match(res.body.error, /\(request req_1\)/, "the error message names the engine's request")
      await server.running.handler.idle(1000)
      const call = only(t, 'engine.ask')
      t.match(call.attributes, {
        'judge.engine.status': 400,
        'judge.engine.request_id': 'req_1',
        'error.type': 'EngineError',
      })
      t.equal(call.status.code, SpanStatusCode.ERROR)
      t.match(call.status.message, /req_1/)
      const judgment = only(t, 'judge')
      t.equal(judgment.status.code, SpanStatusCode.ERROR)
      t.equal(judgment.attributes['error.type'], 'EngineError')
      const request = only(t, 'POST /v1/judge')
      t.equal(request.status.code, SpanStatusCode.ERROR)
      t.equal(request.attributes['http.response.status_code'], 502)
      t.match(JSON.parse(lines[0]), { status: 502, engine_request_ids: ['req_1'] })
    },
  )

  t.test("a shadow judgment has its own span, after the request's", async (t) => {
    const candidate = SPAM_YAML.replace('name: spam', 'name: spam_v2').replace(
      'ask: Is this message',
      'ask: CANDIDATE. Is this message',
    )
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'spam-v2.judge.yaml': candidate })
    const server = await startJudgeServer(t, dir, {}, { engine: createFakeEngine() })
    const res = await server.post('/v1/judge', { ...ROW, shadow: 'spam-v2.judge.yaml' })
    t.equal(res.status, 200)
    await server.running.handler.idle(1000)
    const shadow = only(t, 'judge.shadow')
    t.match(shadow.attributes, { 'judge.candidate': 'spam-v2.judge.yaml', 'judge.shadow.result': 'compared' })
    t.equal(shadow.parentSpanContext?.spanId, only(t, 'POST /v1/judge').spanContext().spanId)
    t.ok(
      exporter
        .getFinishedSpans()
        .filter((s) => s.name === 'engine.ask')
        .some((s) => s.parentSpanContext?.spanId === shadow.spanContext().spanId),
      "the candidate's engine call within it",
    )
  })

  t.test(
    "an embedded handler's request span is a child of the host's span; else of the trace the request carries",
    async (t) => {
      const handler = createHandler(readConfig({ JUDGE_PROJECTS: t.testdir({ 'spam.judge.yaml': SPAM_YAML }) }, '/'), {
        engine: createFakeEngine(),
        log: () => {},
      })
      t.teardown(() => handler.close(1000))
      const host = createServer((req, res) =>
        tracer().startActiveSpan('host', (span) => {
          res.once('close', () => span.end())
          handler(req, res)
        }),
      )
      await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
      t.teardown(() => new Promise<void>((resolve) => host.close(() => resolve())))
      const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
      t.equal((await fetch(`${url}/healthz?x=1`)).status, 200)
      await handler.idle(1000)
      const request = only(t, 'GET /healthz')
      t.equal(request.parentSpanContext?.spanId, only(t, 'host').spanContext().spanId)
      t.equal(request.attributes['url.path'], '/healthz', 'no query')

      exporter.reset()
      propagation.setGlobalPropagator(traceparent)
      t.teardown(() => propagation.disable())
      const server = await startJudgeServer(
        t,
        t.testdir({ 'spam.judge.yaml': SPAM_YAML }),
        {},
        { engine: createFakeEngine() },
      )
      await server.get('/healthz', { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` })
      await server.running.handler.idle(1000)
      const carried = only(t, 'GET /healthz')
      t.equal(carried.spanContext().traceId, 'a'.repeat(32))
      t.equal(carried.parentSpanContext?.spanId, 'b'.repeat(16))
    },
  )

  t.test('a span carries the path it is given, without its query', async (t) => {
    startRequestSpan({}, 'GET', 'none', '/', 'id')!.span.end()
    t.equal(only(t, 'GET none').attributes['url.path'], '/')
  })

  t.test('a failure other than an Error is named unknown, its message cleaned', async (t) => {
    const span = tracer().startSpan('x')
    failed(span, 'plain words', (text) => text.toUpperCase())
    span.end()
    const ended = only(t, 'x')
    t.equal(ended.attributes['error.type'], 'unknown')
    t.equal(ended.status.message, 'PLAIN WORDS')
  })
})

t.test('once the SDK is taken away, nothing is traced again', async (t) => {
  t.notOk(tracer().startSpan('x').isRecording())
  t.equal(startRequestSpan({}, 'GET', '/', '/', 'id'), null)
})

/** A local System One server, stopped at teardown, and the environment that points a server at it. */
async function systemOne(t: Test, options: Parameters<typeof startSystemOneServer>[0] = {}) {
  const server = await startSystemOneServer(options)
  t.teardown(() => server.close())
  return { server, env: { ENGINE: 'systemone', ENGINE_URL: server.url, ENGINE_API_KEY: 'key-for-tests' } }
}

/** The one finished span of that name. */
function only(t: Test, name: string): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((s) => s.name === name)
  t.equal(spans.length, 1, `one ${name} span`)
  return spans[0]
}

/** A propagator of W3C's traceparent alone, enough to see that a request's trace is taken up. */
const traceparent: TextMapPropagator = {
  inject: () => {},
  fields: () => ['traceparent'],
  extract(parent: Context, carrier: unknown): Context {
    const header = (carrier as Record<string, string | undefined>).traceparent
    const [, traceId, spanId] = header?.split('-') ?? []
    return traceId === undefined
      ? parent
      : trace.setSpanContext(parent, { traceId, spanId, traceFlags: 1, isRemote: true })
  },
}
