import t, { type Test } from 'tap'
import {
  createSystemOne,
  SYSTEM_ONE_DEFAULT_MODEL,
  type SystemOneOptions,
} from '../../../src/adapters/system-one/system-one.ts'
import { EngineError } from '../../../src/errors.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import { engineContract, question, QUESTIONS } from '../../helpers/engine-contract.ts'
import {
  startSystemOneServer,
  type ScriptedReply,
  type SystemOneServer,
  type SystemOneServerOptions,
} from '../../helpers/system-one-server.ts'

const KEY = 'sk-test-Secret-4711'
const REQUEST: EngineRequest = { model: 'jev-1.13.0', state: { message: 'WIN A PRIZE now' }, questions: QUESTIONS }

/** A local server that closes when the test ends. */
async function serve(t: Test, options: SystemOneServerOptions = {}): Promise<SystemOneServer> {
  const server = await startSystemOneServer(options)
  t.teardown(() => server.close())
  return server
}

/** The adapter against `server`. */
function adapter(server: SystemOneServer, options: Partial<SystemOneOptions> = {}) {
  return { engine: createSystemOne({ apiKey: KEY, url: server.url, ...options }) }
}

/** Asserts the call fails with an EngineError that does not give the key away, and returns it. */
async function failure(t: Test, asking: Promise<unknown>): Promise<EngineError> {
  const error = await asking.then(
    () => t.fail('expected the engine to fail'),
    (e: unknown) => e,
  )
  t.type(error, EngineError)
  t.notMatch((error as Error).message, KEY, 'the key is not in the message')
  return error as EngineError
}

/** A well-formed answer body to REQUEST, for tests that break one part of it. */
function body(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: 'jev-1.13.0',
    answers: {
      is_spam: { type: 'noul', noul: 0.9 },
      topic: { type: 'choice', choice: 'promotion', probabilities: { personal: 0.1, promotion: 0.8, service: 0.1 } },
      urgency: { type: 'score', score: 1, probabilities: { 0: 0.2, 1: 0.6, 2: 0.2 } },
    },
    usage: { input_tokens: 320, output_tokens: 3 },
    ...over,
  }
}

await engineContract(t, 'the System One adapter keeps the Engine contract', {
  working: async (t) => adapter(await serve(t)).engine,
  failing: async (t) => adapter(await serve(t, { failTimes: 99, status: 500 })).engine,
})

t.test('one request carries every question, mapped to the API types', async (t) => {
  const server = await serve(t, { expectKey: KEY })
  await adapter(server).engine.ask(REQUEST)
  t.equal(server.requests.length, 1)
  const { method, path, headers, body } = server.requests[0]
  t.same([method, path, headers.authorization], ['POST', '/v1/systemone', `Bearer ${KEY}`])
  t.match(headers['content-type'], /^application\/json/)
  t.same(body, {
    model: 'jev-1.13.0',
    state: { message: 'WIN A PRIZE now' },
    questions: {
      is_spam: {
        type: 'noul',
        instructions: 'What about is_spam?',
        criteria: { true: 'Unsolicited advertising or a scam' },
      },
      topic: {
        type: 'choice',
        instructions: 'What about topic?',
        criteria: { personal: 'Chat between people', promotion: null, service: 'Notices' },
      },
      urgency: { type: 'score', instructions: 'What about urgency?', criteria: ['low', 'medium', 'high'] },
    },
  })
})

t.test('descriptions go to the criteria when given, labels stand in for missing level descriptions', async (t) => {
  const server = await serve(t)
  const plain = question('plain', 'yes_no', ['yes', 'no'])
  const both = question('both', 'yes_no', ['yes', 'no'], ['It is', 'It is not'])
  const level = question('level', 'scale', ['low', 'high'], ['Can wait', null])
  await adapter(server).engine.ask({ model: 'm', state: { a: '1' }, questions: [plain, both, level] })
  t.same(server.requests[0].body.questions, {
    plain: { type: 'noul', instructions: 'What about plain?' },
    both: { type: 'noul', instructions: 'What about both?', criteria: { true: 'It is', false: 'It is not' } },
    level: { type: 'score', instructions: 'What about level?', criteria: ['Can wait', 'high'] },
  })
})

t.test('a URL with a trailing slash still posts to /v1/systemone', async (t) => {
  const server = await serve(t)
  await adapter(server, { url: `${server.url}/` }).engine.ask(REQUEST)
  t.equal(server.requests[0].path, '/v1/systemone')
})

t.test('rounded, integer and shuffled answers become distributions keyed by labels', async (t) => {
  const server = await serve(t, {
    answer: () => ({
      topic: { probabilities: { service: 0, promotion: 1, personal: 0 }, choice: 'promotion', type: 'choice' },
      urgency: { probabilities: { 2: 0.33, 0: 0.1, 1: 0.57 }, type: 'score', score: 1.23 },
      is_spam: { noul: 0.93, type: 'noul' },
    }),
  })
  const result = await adapter(server).engine.ask(REQUEST)
  t.same(result.distributions, {
    is_spam: { yes: 0.93, no: 0.07 },
    topic: { personal: 0, promotion: 1, service: 0 },
    urgency: { low: 0.1, medium: 0.57, high: 0.33 },
  })
})

t.test('a yes_no answer of 1 or 0 is certainty', async (t) => {
  for (const noul of [1, 0]) {
    const server = await serve(t, { answer: () => ({ is_spam: { type: 'noul', noul } }) })
    const result = await adapter(server).engine.ask({ ...REQUEST, questions: [QUESTIONS[0]] })
    t.same(result.distributions.is_spam, { yes: noul, no: 1 - noul })
  }
})

t.test('usage becomes tokens and the reported model is the one that answered', async (t) => {
  const server = await serve(t)
  const result = await adapter(server).engine.ask({ ...REQUEST, model: 'jev-latest' })
  const stateChars = JSON.stringify(REQUEST.state).length
  t.equal(result.inputTokens, Math.round(275 + 0.19 * stateChars + 21 * 3))
  t.equal(result.outputTokens, 3)
  t.equal(result.model, 'jev-1.13.0')
  t.equal(server.requests[0].body.model, 'jev-latest')
})

t.test('a missing output token count reads as 0, since output is free', async (t) => {
  const server = await serve(t, { reply: () => ({ status: 200, body: body({ usage: { input_tokens: 12 } }) }) })
  const result = await adapter(server).engine.ask(REQUEST)
  t.same([result.inputTokens, result.outputTokens], [12, 0])
})

t.test('an unusable answer is an EngineError naming what is wrong, and is not asked again', async (t) => {
  const answers = (over: Record<string, unknown>) => body({ answers: { ...(body().answers as object), ...over } })
  const cases: [string, unknown, RegExp][] = [
    ['a body that is not JSON', `<html>${KEY}</html>`, /answer is unusable: the body is not JSON \(it starts "<html>/],
    ['a body that is not an object', [1, 2], /the body is \[1,2\], not a JSON object/],
    ['a missing model', body({ model: undefined }), /field "model" is missing/],
    ['missing answers', body({ answers: 'none' }), /field "answers" is "none"/],
    ['a missing question', answers({ topic: undefined }), /question "topic" has no answer/],
    ['an answer that is not an object', answers({ topic: 0.5 }), /question "topic": the answer is 0.5, not an object/],
    ['an answer of another type', answers({ topic: { type: 'score' } }), /answered as type "score", asked as "choice"/],
    ['an unknown label', answers({ topic: { probabilities: { personal: 0.5, spam: 0.5 } } }), /unknown label "spam"/],
    [
      'an unknown level',
      answers({ urgency: { probabilities: { 0: 0.5, 3: 0.5 } } }),
      /question "urgency": unknown level "3"/,
    ],
    [
      'a missing label',
      answers({ topic: { probabilities: { personal: 0.5, promotion: 0.5 } } }),
      /question "topic": no probability for label "service"/,
    ],
    [
      'a probability as text',
      answers({ topic: { probabilities: { personal: '0.5', promotion: 0.5, service: 0 } } }),
      /probability of label "personal" is "0.5", not a number in \[0, 1\]/,
    ],
    [
      'a probability above 1',
      answers({ urgency: { probabilities: { 0: 1.2, 1: 0, 2: 0 } } }),
      /question "urgency": probability of level "0" is 1.2, not a number in \[0, 1\]/,
    ],
    ['a missing noul', answers({ is_spam: { type: 'noul' } }), /question "is_spam": field "noul" is missing/],
    [
      'missing probabilities',
      answers({ topic: { type: 'choice' } }),
      /question "topic": field "probabilities" is missing/,
    ],
    ['missing usage', body({ usage: undefined }), /field "usage" is missing/],
    ['an unreadable token count', body({ usage: { input_tokens: '12' } }), /field "usage.input_tokens" is "12"/],
  ]
  for (const [name, reply, message] of cases) {
    const server = await serve(t, { reply: () => ({ status: 200, body: reply }) })
    const error = await failure(t, adapter(server).engine.ask(REQUEST))
    t.match(error.message, message, name)
    t.equal(error.engineStatus, null, `${name}: no engine status`)
    t.equal(server.requests.length, 1, `${name}: asked once`)
  }
})

t.test(
  'every request is tried once: a transient failure is an error that says so, with the wait asked for',
  async (t) => {
    const overloaded = await serve(t, { failTimes: 99, status: 500, errorMessage: 'overloaded' })
    const error = await failure(t, adapter(overloaded).engine.ask(REQUEST))
    t.equal(error.message, 'engine answered 500: overloaded (request req_1)', 'no retry: the core paces and retries')
    t.same([error.engineStatus, error.transient, error.retryAfterMs], [500, true, null])
    t.equal(overloaded.requests.length, 1)
    const cases: [string, number][] = [
      ['2', 2000],
      ['60', 60_000],
      [new Date(Date.now() - 3_600_000).toUTCString(), 0],
    ]
    for (const [retryAfter, ms] of cases) {
      const limited = await serve(t, { failTimes: 1, status: 429, retryAfter })
      const refused = await failure(t, adapter(limited).engine.ask(REQUEST))
      t.same(
        [refused.engineStatus, refused.transient, refused.retryAfterMs],
        [429, true, ms],
        `Retry-After: ${retryAfter}`,
      )
      t.equal(limited.requests.length, 1)
      const answer = await adapter(limited).engine.ask(REQUEST)
      t.same([answer.model, answer.requestId], ['jev-1.13.0', 'req_2'], 'asked again, it answers, with its request id')
    }
  },
)

t.test('other 4xx fail at once with the engine message', async (t) => {
  const cases: [ScriptedReply, string][] = [
    [
      { status: 400, body: { detail: { error_type: 'api_usage_error', message: 'Unknown model: jev-0' } } },
      'engine answered 400: Unknown model: jev-0',
    ],
    [
      { status: 422, body: { detail: [{ loc: ['body', 'model'], msg: 'Field required' }, { msg: 'Bad' }] } },
      'engine answered 422: body.model: Field required; Bad',
    ],
    [
      { status: 403, body: { detail: { error_type: 'authentication_error' } } },
      'engine answered 403: authentication_error',
    ],
    [{ status: 404, body: { error: { message: 'No such route' } } }, 'engine answered 404: No such route'],
    [{ status: 409, body: { detail: 'Conflict here' } }, 'engine answered 409: Conflict here'],
    [{ status: 400, body: '<h1>Bad   request</h1>\n' }, 'engine answered 400: <h1>Bad request</h1>'],
    [{ status: 400, body: '' }, 'engine answered 400: Bad Request'],
    [{ status: 400, body: { detail: {} } }, 'engine answered 400: {"detail":{}}'],
    [
      { status: 307, headers: { location: 'http://127.0.0.1:9/' }, body: '' },
      'engine answered 307: Temporary Redirect',
    ],
  ]
  for (const [reply, message] of cases) {
    const server = await serve(t, { reply: () => reply })
    const error = await failure(t, adapter(server).engine.ask(REQUEST))
    t.equal(error.message, `${message} (request req_1)`, "the engine's request id is kept")
    t.equal(error.requestId, 'req_1')
    t.equal(error.engineStatus, reply.status)
    t.equal(error.transient, false, `${reply.status} is not worth asking again`)
    t.equal(server.requests.length, 1)
  }
})

t.test('a wrong key is refused', async (t) => {
  const server = await serve(t, { expectKey: 'the-right-key' })
  const error = await failure(t, adapter(server).engine.ask(REQUEST))
  t.match(error.message, /^engine answered 401: Cannot authenticate/)
  t.equal(server.requests.length, 1)
})

t.test('the key never appears in an error, even when the engine echoes it', async (t) => {
  const echo = `rejected Bearer ${KEY}`
  const server = await serve(t, { failTimes: 99, status: 500, errorMessage: echo })
  const error = await failure(t, adapter(server).engine.ask(REQUEST))
  t.equal(error.message, 'engine answered 500: rejected Bearer [redacted] (request req_1)')
})

t.test('an unreachable engine fails naming where it looked, as a transient failure', async (t) => {
  const server = await startSystemOneServer()
  await server.close()
  const error = await failure(t, adapter(server).engine.ask(REQUEST))
  t.match(error.message, `could not reach the engine at ${server.url}/v1/systemone: `)
  t.match(error.message, /ECONNREFUSED/)
  t.same([error.engineStatus, error.transient], [null, true])
})

t.test('requests go through the given fetch', async (t) => {
  const server = await serve(t)
  let calls = 0
  const counting: typeof fetch = (input, init) => (calls++, fetch(input, init))
  const result = await adapter(server, { fetch: counting }).engine.ask(REQUEST)
  t.equal(result.model, 'jev-1.13.0')
  t.same([calls, server.requests.length], [1, 1])
})

t.test('a request has its time limit', async (t) => {
  const server = await serve(t, { latencyMs: 60_000 })
  const error = await failure(t, adapter(server, { timeoutMs: 50 }).engine.ask(REQUEST))
  t.equal(error.message, 'the engine did not answer within 50 ms')
  t.equal(error.transient, true)
  // On a busy machine the request may be cut off before the server even sees it: never twice.
  t.ok(server.requests.length <= 1, `one attempt at most (${server.requests.length} seen)`)
})

t.test('a caller that cancels stops the request', async (t) => {
  const server = await serve(t, { latencyMs: 60_000 })
  const early = await failure(t, adapter(server).engine.ask(REQUEST, AbortSignal.abort()))
  t.equal(early.message, 'the engine request was cancelled')
  t.equal(early.transient, false)

  const during = new AbortController()
  const aborting: typeof fetch = (input, init) => {
    const response = fetch(input, init)
    during.abort()
    return response
  }
  const late = await failure(t, adapter(server, { fetch: aborting }).engine.ask(REQUEST, during.signal))
  t.equal(late.message, 'the engine request was cancelled')
})

t.test('the defaults: TypeSafe URL, a pinned Jev model, and a key that must be given', async (t) => {
  let url = ''
  const fake: typeof fetch = async (input) => {
    url = String(input)
    return new Response(JSON.stringify(body()), { status: 200 })
  }
  const engine = createSystemOne({ apiKey: KEY, fetch: fake })
  t.equal(engine.defaultModel, SYSTEM_ONE_DEFAULT_MODEL)
  t.equal(SYSTEM_ONE_DEFAULT_MODEL, 'jev-1.13.0')
  await engine.ask(REQUEST)
  t.equal(url, 'https://api.typesafe.ai/v1/systemone')
  t.equal(createSystemOne({ apiKey: KEY, defaultModel: 'jev-latest' }).defaultModel, 'jev-latest')
  t.throws(() => createSystemOne({ apiKey: '' }), TypeError)
})

t.test('the models are GET /v1/models, with the key, each with its description and release date', async (t) => {
  const server = await serve(t, {
    expectKey: KEY,
    models: [{ name: 'jev-latest', description: 'Latest', release_date: '2026-09-10' }, { name: 'jev-1.14.0' }],
  })
  const models = await adapter(server).engine.models!()
  t.same(models, [
    { name: 'jev-latest', description: 'Latest', releaseDate: '2026-09-10' },
    { name: 'jev-1.14.0', description: null, releaseDate: null },
  ])
  t.match(server.requests[0], { method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${KEY}` } })
  const wrongKey = createSystemOne({ apiKey: 'sk-wrong', url: server.url })
  t.match(await failure(t, wrongKey.models!()), {
    engineStatus: 401,
    message: /engine answered 401: Cannot authenticate/,
  })
  const down = createSystemOne({ apiKey: KEY, url: 'http://127.0.0.1:9' })
  t.match(await failure(t, down.models!()), {
    message: /could not reach the engine at http:\/\/127.0.0.1:9\/v1\/models/,
  })
})

t.test("an answer's option mass, temperature and confidence come back beside its distribution", async (t) => {
  const server = await serve(t, { optionMass: (name) => (name === 'topic' ? 0.08 : undefined) })
  const result = await adapter(server).engine.ask(REQUEST)
  t.same(result.facts?.topic?.optionMass, 0.08)
  t.equal(result.facts?.is_spam, undefined, 'a question given no extra field has none')
  t.type(result.facts?.topic?.confidence, 'number', 'the simulated model gives choices a confidence')
})

t.test("an unusable answer names the engine's request id, as the status errors do", async (t) => {
  const server = await serve(t, { reply: () => ({ status: 200, body: [1] }) })
  const error = await failure(t, adapter(server).engine.ask(REQUEST))
  t.match(error, { message: /not a JSON object \(request req_1\)$/, requestId: 'req_1', engineStatus: null })
})

t.test('a 529 and its retry-after-ms come through as the core needs them', async (t) => {
  const server = await serve(t, {
    reply: () => ({
      status: 529,
      headers: { 'retry-after-ms': '1500', 'retry-after': '9' },
      body: { detail: { error_type: 'overloaded_error', message: 'Overloaded' } },
    }),
  })
  const error = await failure(t, adapter(server).engine.ask(REQUEST))
  t.match(error, {
    engineStatus: 529,
    transient: true,
    retryAfterMs: 1500,
    message: 'engine answered 529: Overloaded (request req_1)',
  })
})
