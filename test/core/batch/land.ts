import t from 'tap'
import { failureText, landedOf, unansweredMessage } from '../../../src/core/batch/land.ts'
import { itemKey } from '../../../src/core/batch/items.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { spec } from '../../helpers/specs.ts'

t.test('failures are told by reason, most first', async (t) => {
  t.equal(failureText([]), '')
  t.equal(
    failureText([
      { key: 'a', ok: false, reason: 'failed: 500 boom' },
      { key: 'b', ok: false, reason: 'expired' },
      { key: 'c', ok: false, reason: 'expired' },
      { key: 'd', ok: false, reason: 'cancelled' },
    ]),
    '2 expired, 1 cancelled, 1 failed: 500 boom',
  )
  const tied = ['z', 'a', 'm'].map((reason) => ({ key: reason, ok: false as const, reason }))
  t.equal(failureText(tied), '1 a, 1 m, 1 z', 'reasons as many times each in order of their words')
})

t.test("an item's answers are read as a per-request answer, its cost at the price given", async (t) => {
  const s = spec()
  const state = { message: 'win a prize' }
  const questions = s.questions.slice(0, 1)
  const item = {
    key: itemKey('m', stateHash(state), [questions[0].fingerprint]),
    request: { model: 'm', state, questions },
  }
  const result = {
    model: 'm-2',
    distributions: { is_spam: { yes: 0.9, no: 0.1 } },
    inputTokens: 2_000_000,
    outputTokens: 1,
  }
  const landed = landedOf(s, item, { key: item.key, ok: true, result }, '2026-01-01T00:00:00.000', 0.05)
  t.equal(landed.cost, 0.1)
  t.equal(landed.requests, 1, 'a request per question when the engine says nothing')
  t.equal(landed.hash, stateHash(state))
  t.match(landed.answers, [{ label: 'yes', model: 'm', reportedModel: 'm-2', fingerprint: questions[0].fingerprint }])
  const two = landedOf(s, item, { key: item.key, ok: true, result: { ...result, requests: 4 } }, '', 0)
  t.equal(two.requests, 4)
  t.throws(
    () => landedOf(s, item, { key: item.key, ok: true, result: { ...result, distributions: {} } }, '', 0),
    /no answer/,
  )
})

t.test('an incomplete bulk run says what got no answer', async (t) => {
  t.equal(unansweredMessage([], 2), '2 rows without every answer; run again to ask them')
  t.equal(
    unansweredMessage([{ key: 'a', ok: false, reason: 'expired' }], 1),
    '1 item unanswered in the batch (1 expired); 1 row without every answer; run again to ask them',
  )
})
