import t from 'tap'
import {
  customId,
  customIdLine,
  itemLines,
  OPENAI_BATCH_LIMITS,
  readResultLine,
  tagOf,
  toBatchStatus,
} from '../../../src/adapters/openai/openai-batch-wire.ts'
import { toChatRequest } from '../../../src/adapters/openai/openai-wire.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'
import { batchStatus } from '../../helpers/batch-status.ts'

t.test("OpenAI's limits per batch: 50,000 requests and 200 MB", async (t) => {
  t.same(OPENAI_BATCH_LIMITS, { maxRequests: 50_000, maxBytes: 200 * 2 ** 20 })
})

t.test('an item is one line per question, each a POST of the chat body under key:index', async (t) => {
  const request = { model: 'm', state: { a: '1' }, questions: QUESTIONS }
  const lines = itemLines({ key: 'k_1-x', request })
  t.equal(lines.length, 3)
  t.same(JSON.parse(lines[2]), {
    custom_id: 'k_1-x:2',
    method: 'POST',
    url: '/v1/chat/completions',
    body: toChatRequest('m', { a: '1' }, QUESTIONS[2]),
  })
  t.equal(customId('a', 7), 'a:7')
  for (const key of ['', 'a:b', 'x'.repeat(49)])
    t.throws(() => itemLines({ key, request }), /a batch item's key must match/)
})

t.test("a batch object reads as the port's status, missing counts and files as 0 and null", async (t) => {
  t.same(
    toBatchStatus({ id: 'b', status: 'in_progress', output_file_id: '', metadata: { judge_batch: 7 } }),
    batchStatus({ id: 'b', state: 'in_progress' }),
  )
  const failed = toBatchStatus({
    id: 'b',
    status: 'failed',
    input_file_id: 'file-1',
    request_counts: { total: 3, completed: -1, failed: 1.5 },
    errors: {
      object: 'list',
      data: [{ code: 'invalid_json_line', message: 'not JSON', line: 2 }, { message: 'too big' }, 'odd'],
    },
  })
  t.match(failed, { total: 3, completed: 0, failed: 0, inputFileId: 'file-1' })
  t.equal(failed.error, 'invalid_json_line not JSON (line 2); too big')
  t.equal(toBatchStatus({ id: 'b', status: 'failed', errors: { data: [] } }).error, null)
  t.equal(tagOf({ metadata: { judge_batch: 'run-1' } }), 'run-1')
  t.equal(tagOf({ metadata: null }), null)
})

t.test('a result line is an answer, or a reason: expired, cancelled, or failed with its code and words', async (t) => {
  const body = { choices: [] }
  const line = (fields: object) => JSON.stringify({ id: 'r', custom_id: 'k:0', ...fields })
  t.same(readResultLine(line({ response: { status_code: 200, body }, error: null })), {
    customId: 'k:0',
    ok: true,
    body,
  })
  const reason = (fields: object) => {
    const read = readResultLine(line(fields))
    return read && !read.ok ? read.reason : read
  }
  t.equal(reason({ response: null, error: { code: 'batch_expired', message: 'late' } }), 'expired')
  t.equal(reason({ response: null, error: { code: 'batch_cancelled', message: 'stopped' } }), 'cancelled')
  t.equal(reason({ error: { code: 'server_error', message: 'boom' } }), 'failed: server_error boom')
  t.equal(reason({ error: { code: '' } }), 'failed: error no message')
  t.equal(
    reason({ response: { status_code: 429, body: { error: { message: 'Rate limit reached' } } } }),
    'failed: 429 Rate limit reached',
  )
  t.equal(reason({ response: { status_code: 200, body: 'text' } }), 'failed: 200 text')
  t.equal(reason({}), 'failed: no status no message')
  for (const odd of ['', 'not json', '[1]', '{"custom_id": 3}']) t.equal(readResultLine(odd), null, odd)
})

t.test('a result line is read as its custom id and the line, or null without one', async (t) => {
  t.same(customIdLine('{"custom_id": "a:1", "x": 2}'), { customId: 'a:1', line: { custom_id: 'a:1', x: 2 } })
  for (const line of ['', 'not json', '[1]', '{"custom_id": 7}']) t.equal(customIdLine(line), null, line)
})
