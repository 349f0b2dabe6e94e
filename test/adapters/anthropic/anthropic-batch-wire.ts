import t from 'tap'
import {
  ANTHROPIC_BATCH_LIMITS,
  ANTHROPIC_READING,
  customId,
  itemRequests,
  packBody,
  packRequests,
  readResultLine,
  toBatchStatus,
} from '../../../src/adapters/anthropic/anthropic-batch-wire.ts'
import { toMessagesRequest } from '../../../src/adapters/anthropic/anthropic-wire.ts'
import type { BatchItem } from '../../../src/ports/engine.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'
import { batchStatus } from '../../helpers/batch-status.ts'

const item = (key: string, questions = QUESTIONS): BatchItem => ({
  key,
  request: { model: 'claude-x', state: { message: key }, questions },
})

t.test("Anthropic's limits are 100,000 requests and 256 MB a batch", async (t) => {
  t.same(ANTHROPIC_BATCH_LIMITS, { maxRequests: 100_000, maxBytes: 256_000_000 })
})

t.test("an item's requests are the per-request lane's bodies under key_question, a pack's text the body", async (t) => {
  t.equal(customId('k-1_x', 2), 'k-1_x_2')
  t.equal(customId('k-1_x', 2, { at: 0, of: 5 }), 'k-1_x_2s0of5')
  const lines = itemRequests(item('a_1'))
  t.same(
    lines.map((line) => JSON.parse(line)),
    QUESTIONS.map((q, i) => ({ custom_id: `a_1_${i}`, params: toMessagesRequest('claude-x', { message: 'a_1' }, q) })),
  )
  t.throws(() => itemRequests(item('no:colons')), { message: /a batch item's key must match/ })
  const [pack] = packRequests([item('a'), item('b')], ANTHROPIC_BATCH_LIMITS)
  t.same(JSON.parse(packBody(pack)), {
    requests: [...itemRequests(item('a')), ...itemRequests(item('b'))].map((line) => JSON.parse(line)),
  })
  t.equal(pack.lines, 6)
  const sampled = itemRequests(item('a'), { samples: 2, temperature: 0.5 }).map((line) => JSON.parse(line))
  t.same(
    sampled.slice(0, 3),
    [
      { custom_id: 'a_0s0of2', params: toMessagesRequest('claude-x', { message: 'a' }, QUESTIONS[0], 0.5) },
      { custom_id: 'a_0s1of2', params: toMessagesRequest('claude-x', { message: 'a' }, QUESTIONS[0], 0.5) },
      { custom_id: 'a_1s0of2', params: toMessagesRequest('claude-x', { message: 'a' }, QUESTIONS[1], 0.5) },
    ],
    'k lines a question, at the sampling temperature',
  )
  t.equal(packRequests([item('a')], ANTHROPIC_BATCH_LIMITS, { samples: 2, temperature: 0.5 })[0].lines, 6)
  const packs = packRequests([item('a'), item('b'), item('c')], { maxRequests: 6, maxBytes: 1e9 })
  t.same(
    packs.map((p) => [p.items.map((i) => i.key), p.lines, JSON.parse(packBody(p)).requests.length]),
    [
      [['a', 'b'], 6, 6],
      [['c'], 3, 3],
    ],
  )
})

t.test(
  'a batch in progress, cancelling, or ended: completed, or cancelled or expired when every request was',
  async (t) => {
    const counts = (c: object) => ({ processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0, ...c })
    t.same(
      toBatchStatus({ id: 'b1', processing_status: 'in_progress', request_counts: counts({ processing: 4 }) }),
      batchStatus({ id: 'b1', state: 'in_progress', total: 4 }),
    )
    t.match(toBatchStatus({ id: 'b1', processing_status: 'canceling' }), { state: 'cancelling', total: 0 })
    const ended = (c: object) =>
      toBatchStatus({ id: 'b1', processing_status: 'ended', request_counts: counts(c), results_url: 'http://x/r' })
    t.match(ended({ succeeded: 2, errored: 1, expired: 1 }), {
      state: 'completed',
      total: 4,
      completed: 2,
      failed: 2,
      outputFileId: 'http://x/r',
    })
    t.match(ended({ canceled: 3 }), { state: 'cancelled', failed: 3 })
    t.match(ended({ expired: 3 }), { state: 'expired', failed: 3 })
    t.match(ended({}), { state: 'completed', total: 0 })
    t.throws(() => toBatchStatus({ processing_status: 'ended' }), { message: /the batch's field "id" is missing/ })
    t.throws(() => toBatchStatus({ id: 'b1', processing_status: 'done' }), {
      message: /batch b1: field "processing_status" is "done"/,
    })
  },
)

t.test('a result line: a message, an error with its type and message, expired or cancelled', async (t) => {
  const line = (result: unknown) => JSON.stringify({ custom_id: 'a_0', result })
  t.same(readResultLine(line({ type: 'succeeded', message: { content: [] } })), {
    customId: 'a_0',
    ok: true,
    body: { content: [] },
  })
  t.same(
    readResultLine(line({ type: 'errored', error: { type: 'error', error: { type: 'api_error', message: 'x' } } })),
    {
      customId: 'a_0',
      ok: false,
      reason: 'failed: api_error x',
    },
  )
  t.match(readResultLine(line({ type: 'errored', error: { type: 'invalid_request_error' } })), {
    reason: 'failed: invalid_request_error no message',
  })
  t.match(readResultLine(line({ type: 'errored' })), { reason: 'failed: error no message' })
  t.match(readResultLine(line({ type: 'expired' })), { reason: 'expired' })
  t.match(readResultLine(line({ type: 'canceled' })), { reason: 'cancelled' })
  t.match(readResultLine(JSON.stringify({ custom_id: 'a_0' })), { ok: false, reason: 'failed: error no message' })
  t.equal(readResultLine(''), null)
  t.equal(readResultLine('{"result": {}}'), null)
})

t.test('a custom id names its item and question; an answer is read as the per-request lane reads it', async (t) => {
  t.same(ANTHROPIC_READING.split('k_1_2'), { key: 'k_1', index: 2, sample: 0, of: 1 })
  t.same(ANTHROPIC_READING.split('k_1_2s3of5'), { key: 'k_1', index: 2, sample: 3, of: 5 }, 'a sample of k')
  t.equal(ANTHROPIC_READING.split('k_1_2s5of5'), null, 'no sample past k')
  t.equal(ANTHROPIC_READING.split('k-1'), null)
  const answer = ANTHROPIC_READING.answer(item('k'), 0, { content: [{ type: 'text', text: 'no' }] })
  t.same(answer.answer.distribution, { yes: 0, no: 1 })
  t.ok(answer.estimated > 50)
})
