import t from 'tap'
import { EngineError } from '../../src/errors.ts'
import { engineContract, QUESTIONS } from '../helpers/engine-contract.ts'
import { createFakeEngine, fakeDistribution } from '../helpers/fake-engine.ts'

await engineContract(t, 'the fake engine keeps the Engine contract', {
  working: async () => createFakeEngine(),
  failing: async () => createFakeEngine({ fail: true }),
})

const state = { message: 'hello' }

t.test('the fake records every request and answers the same state the same way', async (t) => {
  const engine = createFakeEngine()
  const first = await engine.ask({ model: 'm-1', state, questions: QUESTIONS })
  const again = await engine.ask({ model: 'm-1', state, questions: QUESTIONS })
  t.same(again.distributions, first.distributions)
  t.same(first.distributions.topic, fakeDistribution(QUESTIONS[1], state))
  t.equal(first.model, 'm-1')
  t.equal(engine.calls.length, 2)
  t.same(engine.calls[0], { model: 'm-1', state, questions: QUESTIONS })
})

t.test('the fake answers with the distributions a test gives it', async (t) => {
  const engine = createFakeEngine({ answer: (q) => Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 1 : 0])) })
  const result = await engine.ask({ model: 'm', state, questions: [QUESTIONS[0]] })
  t.same(result.distributions, { is_spam: { yes: 1, no: 0 } })
})

t.test('the fake fails the calls a test picks, with the error it gives', async (t) => {
  const broken = new EngineError('engine answered 429: slow down', 429)
  const engine = createFakeEngine({ fail: (_request, index) => (index === 1 ? broken : undefined) })
  await engine.ask({ model: 'm', state, questions: QUESTIONS })
  await t.rejects(engine.ask({ model: 'm', state, questions: QUESTIONS }), broken)
  await engine.ask({ model: 'm', state, questions: QUESTIONS })
  await t.rejects(createFakeEngine({ fail: broken }).ask({ model: 'm', state, questions: QUESTIONS }), broken)
  t.equal(engine.calls.length, 3)
})

t.test('the fake keeps calls in flight together while it waits', async (t) => {
  const engine = createFakeEngine({ latencyMs: 20 })
  await Promise.all(Array.from({ length: 4 }, () => engine.ask({ model: 'm', state, questions: QUESTIONS })))
  t.equal(engine.maxInFlight, 4)
})

t.test('the fake stops waiting when the caller cancels', async (t) => {
  const engine = createFakeEngine({ latencyMs: 60_000 })
  const controller = new AbortController()
  const asking = engine.ask({ model: 'm', state, questions: QUESTIONS }, controller.signal)
  controller.abort()
  await t.rejects(asking, { name: 'EngineError', message: 'the engine request was cancelled' })
})
