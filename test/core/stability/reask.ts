import t from 'tap'
import { askAgain, reaskEstimate, reaskRequest, type ReaskState } from '../../../src/core/stability/reask.ts'
import { deps } from '../../helpers/deps.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { answer } from '../../helpers/contracts/answer-store.ts'
import { spec } from '../../helpers/specs.ts'

const SPAM = spec()
const state = (): ReaskState => ({
  spec: SPAM,
  model: 'jev-1',
  stateHash: 'state-0',
  state: { message: 'hi' },
  drawn: [
    {
      question: SPAM.questions[0],
      stored: answer({ label: 'yes', p: 0.8, margin: 0.6 }),
      stratum: 'confident',
      size: 40,
      sampled: 5,
    },
  ],
})

t.test(
  'a state is asked again with only its drawn questions, and each re-ask keeps the stored answer beside the new one',
  async (t) => {
    const engine = createFakeEngine({ answer: () => ({ yes: 0.3, no: 0.7 }) })
    const d = deps(engine)
    const { reasks, requests, cost } = await askAgain(d, 'check-1', state())
    t.same(
      engine.calls[0].questions.map((q) => q.name),
      ['is_spam'],
    )
    t.same(reasks, [
      {
        check: 'check-1',
        judgment: 'spam',
        question: 'is_spam',
        model: 'jev-1',
        fingerprint: SPAM.questions[0].fingerprint,
        stateHash: 'state-0',
        stratum: 'confident',
        stratumSize: 40,
        stratumSampled: 5,
        storedLabel: 'yes',
        storedP: 0.8,
        storedMargin: 0.6,
        distribution: { yes: 0.3, no: 0.7 },
        label: 'no',
        p: 0.7,
        margin: 0.4,
        askedAt: '2026-11-22T10:00:00.000',
        reportedModel: 'jev-1',
      },
    ])
    t.equal(requests, 1)
    t.ok(cost > 0)
    t.equal(d.store.countAnswers('jev-1', SPAM.questions[0].fingerprint), 0, 'nothing is written to the answer cache')
  },
)

t.test("the estimate is the request's, priced; without an engine key nothing is asked", async (t) => {
  const d = deps(createFakeEngine())
  const estimate = reaskEstimate(d, state())
  t.equal(estimate.requests, 1)
  t.ok(estimate.cost > 0 && estimate.inputTokens > 0)
  t.same(reaskRequest(state()).state, { message: 'hi' })
  await t.rejects(askAgain(deps(null), 'check-1', state()), { name: 'MissingKeyError' })
  await t.rejects(askAgain(deps(createFakeEngine({ answer: () => ({}) })), 'check-1', state()), {
    name: 'EngineError',
    message: /gave no answer to question is_spam/,
  })
})
