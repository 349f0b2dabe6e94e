import t from 'tap'
import { askMissing, type Lookup } from '../../../src/core/judge/ask.ts'
import { tokenCost } from '../../../src/core/judge/cost.ts'
import type { JudgeDeps } from '../../../src/core/judge/deps.ts'
import { createLedger, type Ledger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { CostCapError, EngineError, MissingKeyError } from '../../../src/errors.ts'
import type { Engine } from '../../../src/ports/engine.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { spec } from '../../helpers/specs.ts'

const spam = spec()
const state = { message: 'WIN a prize now' }
const fingerprints = spam.questions.map((q) => q.fingerprint)

/** The look-up of the spam judgment for the state, lacking every question but the ones stored. */
function lookup(d: JudgeDeps): Lookup {
  const hash = stateHash(state)
  const stored = d.store.getAnswers('jev-test', hash, fingerprints)
  return {
    spec: spam,
    model: 'jev-test',
    state,
    hash,
    stored: new Map(stored),
    missing: spam.questions.filter((q) => !stored.has(q.fingerprint)),
  }
}

const job = (d: JudgeDeps, ledger: Ledger = createLedger(1)) => ({ deps: d, ledger })

t.test(
  'the questions the store lacks are asked in one request, stored with when they were asked, and tallied',
  async (t) => {
    const engine = createFakeEngine({
      answer: (q) => Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 0.7 : 0.3 / (q.labels.length - 1)])),
    })
    const d = deps(engine)
    const ledger = createLedger(1)
    const filled = await askMissing(job(d, ledger), lookup(d))
    t.equal(engine.calls.length, 1)
    t.same(engine.calls[0], { model: 'jev-test', state, questions: spam.questions })
    t.same([...filled.fresh], fingerprints, 'every answer is fresh to the one who asked')
    const stored = d.store.getAnswers('jev-test', stateHash(state), fingerprints)
    t.same([...filled.stored.keys()], fingerprints)
    t.match(stored.get(fingerprints[0]), {
      judgment: 'spam',
      question: 'is_spam',
      label: 'yes',
      p: 0.7,
      distribution: { yes: 0.7, no: 0.3 },
      askedAt: '2026-11-22T10:00:00.000',
    })
    t.same(d.store.getStates([stateHash(state)]).get(stateHash(state)), state, 'the state is stored with its answers')
    const inputTokens = Math.round(275 + 0.19 * JSON.stringify(state).length + 21 * 3)
    t.same(ledger.tally('spam'), {
      cached: 0,
      asked: 3,
      requests: 1,
      cost: tokenCost(inputTokens, d.pricePerMtok),
      duplicates: 0,
    })
  },
)

t.test('an answer is stored with the option mass the engine gave it, and null where it gave none', async (t) => {
  const engine = createFakeEngine({ optionMass: (q) => (q.name === 'topic' ? 0.07 : undefined) })
  const d = deps(engine)
  await askMissing(job(d), lookup(d))
  const stored = d.store.getAnswers('jev-test', stateHash(state), fingerprints)
  t.same(
    spam.questions.map((q) => stored.get(q.fingerprint)?.optionMass),
    spam.questions.map((q) => (q.name === 'topic' ? 0.07 : null)),
  )
})

t.test(
  'an identical request in flight is joined: the engine is asked once, and the joiner counts the answers as cached',
  async (t) => {
    const engine = createFakeEngine({ latencyMs: 20 })
    const d = deps(engine)
    const asker = createLedger(1)
    const joiner = createLedger(1)
    const [first, second] = await Promise.all([
      askMissing(job(d, asker), lookup(d)),
      askMissing(job(d, joiner), lookup(d)),
    ])
    t.equal(engine.calls.length, 1)
    t.same(second.stored, first.stored, 'both get every answer')
    t.same([...second.fresh], [], 'none of them is fresh to the joiner')
    t.match(asker.tally('spam'), { asked: 3, requests: 1, cached: 0 })
    t.same(joiner.tally('spam'), { cached: 3, asked: 0, requests: 0, cost: 0, duplicates: 0 })
    t.equal(joiner.budget('spam').committed, 0, 'a joiner commits no cost')
    t.equal(d.inflight.size, 0, 'nothing is left in flight')
  },
)

t.test('the estimate is committed to the budget before the engine is asked', async (t) => {
  const ledger = createLedger(1)
  const committed: number[] = []
  const fake = createFakeEngine()
  const engine: Engine = {
    defaultModel: 'x',
    ask: (request, signal) => (committed.push(ledger.budget('spam').committed), fake.ask(request, signal)),
  }
  const d = deps(engine)
  await askMissing(job(d, ledger), lookup(d))
  t.equal(committed.length, 1)
  t.ok(committed[0] > 0, `${committed[0]} USD committed when the request left`)
})

t.test('above the cap nothing is asked and nothing is left in flight', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine)
  await t.rejects(askMissing(job(d, createLedger(0)), lookup(d)), CostCapError)
  t.equal(engine.calls.length, 0)
  t.equal(d.inflight.size, 0)
})

t.test('without an engine the row is refused naming ENGINE_API_KEY', async (t) => {
  const d = deps(null)
  await t.rejects(askMissing(job(d), lookup(d)), MissingKeyError)
  await t.rejects(
    askMissing(job(d), lookup(d)),
    /judgment spam: the store lacks answers for this row and ENGINE_API_KEY is not set; nothing was asked/,
  )
})

t.test('an engine failure rejects, stores nothing and leaves nothing in flight', async (t) => {
  const d = deps(createFakeEngine({ fail: true }))
  await t.rejects(askMissing(job(d), lookup(d)), EngineError)
  t.equal(d.store.countAnswers('jev-test', fingerprints[0]), 0)
  t.equal(d.inflight.size, 0)
})

t.test('an engine result lacking a question is an EngineError naming it, and nothing is stored', async (t) => {
  const engine: Engine = {
    defaultModel: 'x',
    ask: async () => ({
      model: 'x',
      distributions: { is_spam: { yes: 1, no: 0 }, topic: { other: 1 } },
      inputTokens: 1,
      outputTokens: 0,
    }),
  }
  const d = deps(engine)
  await t.rejects(
    askMissing(job(d), lookup(d)),
    new EngineError('judgment spam: the engine gave no answer to question topic', null),
  )
  t.equal(d.store.countAnswers('jev-test', fingerprints[0]), 0)
})
