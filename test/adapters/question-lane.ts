import t from 'tap'
import { engineTarget, questionLane, type QuestionWire } from '../../src/adapters/question-lane.ts'
import type { EngineRequest } from '../../src/ports/engine.ts'
import { QUESTIONS } from '../helpers/engine-contract.ts'

const REQUEST: EngineRequest = { model: 'm-1', state: { message: 'hi' }, questions: QUESTIONS }

/** A body of the test wire: its model and question, and the temperature of a sample. */
interface Body {
  readonly model: string
  readonly q: string
  readonly t?: number
}

/**
 * A wire whose body names its question, estimated at 10 tokens. Its answers' text is JSON: the label named, whether
 * log probabilities came (`lp`), and the model that served it.
 */
const WIRE: QuestionWire<Body> = {
  request: (model, _state, question) => ({ model, q: question.name }),
  sample: (model, _state, question, t) => ({ model, q: question.name, t }),
  estimate: () => 10,
  parse: (text, question) => {
    const said = JSON.parse(text) as { label?: string; lp?: boolean; model?: string }
    const label = said.label ?? question.labels[0]
    return {
      model: said.model ?? null,
      distribution: Object.fromEntries(question.labels.map((l) => [l, l === label ? 1 : 0])),
      optionMass: said.lp ? 0.9 : null,
      source: said.lp ? 'logprobs' : 'text',
      promptTokens: null,
      completionTokens: null,
    }
  },
  read: (_body, question) => WIRE.parse('{}', question),
  logprobs: true,
}

/** A fetch that records each body and answers it as `answer` says. */
function fakeFetch(answer: (body: Body, index: number) => object) {
  const bodies: Body[] = []
  const fetch = (async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Body
    const index = bodies.push(body) - 1
    return new Response(JSON.stringify(answer(body, index)))
  }) as typeof globalThis.fetch
  return { bodies, fetch }
}

function laneOf(fetch: typeof globalThis.fetch, wire: QuestionWire<Body> = WIRE, samples = 4) {
  const target = engineTarget({ fetch }, null, { endpoint: 'http://x/ask', headers: {} })
  return questionLane(target, null, wire, { samples, temperature: 0.7 })
}

/** The draws of a question's samples in the order asked: the labels `turns` names, in turn. */
function drawn(turns: readonly number[]) {
  const seen = new Map<string, number>()
  return (body: Body) => {
    const n = seen.get(body.q) ?? 0
    seen.set(body.q, n + 1)
    const question = QUESTIONS.find((q) => q.name === body.q)!
    return { label: question.labels[turns[n % turns.length]] }
  }
}

t.test("an engine's target: its endpoint and headers, the options' fetch, time limit and cap", async (t) => {
  const fixed = { endpoint: 'http://x/ask', headers: { a: 'b' } }
  t.same(engineTarget({}, null, fixed), {
    ...fixed,
    fetch: globalThis.fetch,
    timeoutMs: 30_000,
    secrets: [null],
  })
  const fetch = (async () => new Response('')) as typeof globalThis.fetch
  t.same(engineTarget({ fetch, timeoutMs: 5, maxResponseBytes: 64 }, 'k-1', { ...fixed, requestIdHeader: 'id' }), {
    ...fixed,
    requestIdHeader: 'id',
    fetch,
    timeoutMs: 5,
    secrets: ['k-1'],
    maxResponseBytes: 64,
  })
})

t.test('one request per question, each body as the wire writes it, the answers assembled', async (t) => {
  const { bodies, fetch } = fakeFetch((body) => ({ lp: true, ...(body.q === 'topic' ? { model: 'served-1' } : {}) }))
  const lane = laneOf(fetch)
  t.same(lane.estimate(REQUEST), { inputTokens: 30, requests: 3 })
  const result = await lane.ask(REQUEST)
  t.same(
    bodies,
    QUESTIONS.map((q) => ({ model: 'm-1', q: q.name })),
  )
  t.same(result.distributions, Object.fromEntries(QUESTIONS.map((q) => [q.name, { ...zeros(q), [q.labels[0]]: 1 }])))
  t.match(result, { model: 'served-1', inputTokens: 30, outputTokens: 3, requests: 3 })
  t.same(result.facts!.is_spam, { source: 'logprobs', optionMass: 0.9 })
  t.same(
    lane.estimate(REQUEST),
    { inputTokens: 30, requests: 3 },
    'a model that gives log probabilities stays asked once',
  )
})

t.test('a wire without log probabilities asks each question k times at the temperature: p is the share', async (t) => {
  const { bodies, fetch } = fakeFetch(drawn([0, 1, 0, 0]))
  const lane = laneOf(fetch, { ...WIRE, logprobs: false })
  t.same(lane.estimate(REQUEST), { inputTokens: 120, requests: 12 })
  const result = await lane.ask(REQUEST)
  t.equal(bodies.length, 12)
  t.ok(
    bodies.every((b) => b.t === 0.7),
    'every sample at the sampling temperature',
  )
  t.same(result.distributions.is_spam, { yes: 0.75, no: 0.25 })
  t.same(result.distributions.topic, { personal: 0.75, promotion: 0.25, service: 0 })
  t.same(result.facts!.is_spam, { source: 'samples', samples: 4 })
  t.match(result, { inputTokens: 120, outputTokens: 12, requests: 12 })
})

t.test("a request's samples override k; k = 1 asks once at temperature 0, the text's label at 1", async (t) => {
  const { bodies, fetch } = fakeFetch(() => ({}))
  const lane = laneOf(fetch, { ...WIRE, logprobs: false })
  t.same(lane.estimate({ ...REQUEST, samples: 2 }), { inputTokens: 60, requests: 6 })
  t.same(lane.estimate({ ...REQUEST, samples: 1 }), { inputTokens: 30, requests: 3 })
  const once = await lane.ask({ ...REQUEST, samples: 1 })
  t.same(
    bodies.map((b) => b.t),
    [undefined, undefined, undefined],
  )
  t.same(once.facts!.topic, { source: 'text', samples: 1 })
  t.equal(once.requests, 3)
  await lane.ask({ ...REQUEST, questions: [QUESTIONS[0]], samples: 2 })
  t.equal(bodies.length, 5, 'two samples of the one question')
})

t.test('a model whose answers carry no log probabilities is sampled, then sampled directly', async (t) => {
  const draw = drawn([1, 0])
  const { bodies, fetch } = fakeFetch((body) => (body.t === undefined ? {} : draw(body)))
  const lane = laneOf(fetch)
  const first = await lane.ask(REQUEST)
  t.equal(bodies.length, 3 + 3 * 4, 'once each, then k samples each')
  t.same(
    bodies.slice(3).map((b) => b.t),
    Array(12).fill(0.7),
  )
  t.same(first.distributions.is_spam, { yes: 0.5, no: 0.5 }, 'the deterministic answer is not a sample')
  t.same(first.facts!.is_spam, { source: 'samples', samples: 4 })
  t.match(first, { requests: 15, inputTokens: 150, outputTokens: 15 })
  t.same(lane.estimate(REQUEST), { inputTokens: 120, requests: 12 }, 'the estimate counts k now')
  t.same(lane.estimate({ ...REQUEST, model: 'm-2' }), { inputTokens: 30, requests: 3 }, 'another model is not known')
  const second = await lane.ask(REQUEST)
  t.equal(bodies.length, 15 + 12, 'k samples each, no deterministic answer')
  t.match(second, { requests: 12, facts: { topic: { source: 'samples', samples: 4 } } })
})

t.test('only the questions answered without log probabilities are sampled', async (t) => {
  const { bodies, fetch } = fakeFetch((body) => (body.q === 'topic' && body.t === undefined ? {} : { lp: true }))
  const result = await laneOf(fetch).ask(REQUEST)
  t.same(
    bodies.slice(3).map((b) => b.q),
    Array(4).fill('topic'),
  )
  t.same(result.facts!.is_spam, { source: 'logprobs', optionMass: 0.9 })
  t.same(result.facts!.topic, { source: 'samples', samples: 4 })
  t.equal(result.requests, 3 + 4)
})

t.test('with k = 1 the model is learnt but asked once, its text at probability 1', async (t) => {
  const { bodies, fetch } = fakeFetch(() => ({}))
  const lane = laneOf(fetch, WIRE, 1)
  const result = await lane.ask(REQUEST)
  t.equal(bodies.length, 3)
  t.same(result.facts!.is_spam, { source: 'text', samples: 1 })
  t.same(lane.estimate(REQUEST), { inputTokens: 30, requests: 3 })
  t.same(lane.estimate({ ...REQUEST, samples: 3 }), { inputTokens: 90, requests: 9 }, 'a spec asking 3 samples it')
})

t.test('a model it is told sends no log probabilities is sampled from its first request', async (t) => {
  const { bodies, fetch } = fakeFetch(drawn([0]))
  const lane = laneOf(fetch)
  t.same(lane.estimate(REQUEST), { inputTokens: 30, requests: 3 }, 'not told yet: once per question')
  lane.knownWithout!('m-1')
  t.same(lane.estimate(REQUEST), { inputTokens: 120, requests: 12 }, 'told: k per question')
  t.same(lane.estimate({ ...REQUEST, model: 'm-2' }), { inputTokens: 30, requests: 3 }, 'another model is not told')
  const result = await lane.ask(REQUEST)
  t.equal(bodies.length, 12, 'k samples each, no deterministic answer first')
  t.ok(
    bodies.every((b) => b.t === 0.7),
    'every request a sample',
  )
  t.match(result, { requests: 12, facts: { is_spam: { source: 'samples', samples: 4 } } })
})

t.test('a wire without log probabilities samples every model already: it takes no telling', async (t) => {
  const { fetch } = fakeFetch(() => ({}))
  t.equal(laneOf(fetch, { ...WIRE, logprobs: false }).knownWithout, undefined)
})

function zeros(q: (typeof QUESTIONS)[number]) {
  return Object.fromEntries(q.labels.map((l) => [l, 0]))
}
