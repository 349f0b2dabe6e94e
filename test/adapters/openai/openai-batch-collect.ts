import t from 'tap'
import { gatherOutcomes } from '../../../src/adapters/openai/openai-batch-collect.ts'
import type { BatchItem } from '../../../src/ports/engine.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'

const ITEMS: BatchItem[] = ['a', 'b'].map((key) => ({
  key,
  request: { model: 'asked', state: { key }, questions: QUESTIONS.slice(0, 2) },
}))

const answer = (id: string, content: string) =>
  JSON.stringify({
    custom_id: id,
    response: {
      status_code: 200,
      body: {
        model: 'served',
        choices: [{ message: { content } }],
        usage: { prompt_tokens: 10, completion_tokens: 1 },
      },
    },
    error: null,
  })

t.test("an item answered in full is ok, its answers read by the per-request lane's code", async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  gathering.add(answer('a:1', 'promotion'))
  gathering.add(answer('a:0', 'yes'))
  t.same(gathering.outcomes()[0], {
    key: 'a',
    ok: true,
    result: {
      model: 'served',
      distributions: { is_spam: { yes: 1, no: 0 }, topic: { personal: 0, promotion: 1, service: 0 } },
      inputTokens: 20,
      outputTokens: 2,
      requests: 2,
      facts: { is_spam: { source: 'text', samples: 1 }, topic: { source: 'text', samples: 1 } },
    },
  })
  t.same(gathering.outcomes()[1], { key: 'b', ok: false, reason: 'missing' }, 'no line of b: missing')
})

t.test('a failed question fails its item with the reason; an answer it cannot read is such a reason', async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  gathering.add(answer('a:0', 'yes'))
  gathering.add(JSON.stringify({ custom_id: 'a:1', response: null, error: { code: 'batch_expired', message: 'late' } }))
  gathering.add(answer('b:0', 'maybe'))
  t.same(gathering.outcomes(), [
    { key: 'a', ok: false, reason: 'expired' },
    {
      key: 'b',
      ok: false,
      reason:
        'the engine\'s answer is unusable: question "is_spam": the model answered "maybe", which begins none of ' +
        'the labels yes, no',
    },
  ])
})

t.test('lines of other items, of questions it has not, repeated or unreadable are passed over', async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  for (const line of [
    answer('a:0', 'yes'),
    answer('a:0', 'no'),
    answer('a:2', 'yes'),
    answer('a:x', 'yes'),
    answer('a', 'yes'),
    answer('zulu:0', 'yes'),
    '',
    'garbage',
    answer('a:1', 'service'),
  ])
    gathering.add(line)
  const [a] = gathering.outcomes()
  t.match(
    a,
    { ok: true, result: { distributions: { is_spam: { yes: 1 }, topic: { service: 1 } } } },
    'the first a:0 holds',
  )
})

t.test('a read that failed midway is forgotten; a read that ended is kept', async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  gathering.add(answer('a:0', 'yes'))
  gathering.add(answer('a:1', 'promotion'))
  gathering.settle(true)
  gathering.add(answer('b:0', 'no'))
  gathering.add(JSON.stringify({ custom_id: 'b:1', response: { status_code: 500, body: null }, error: null }))
  gathering.settle(false)
  gathering.add(answer('b:0', 'yes'))
  gathering.add(answer('b:1', 'service'))
  gathering.settle(true)
  const [a, b] = gathering.outcomes()
  t.match(a, { key: 'a', ok: true })
  t.match(b, { key: 'b', ok: true, result: { distributions: { is_spam: { yes: 1 }, topic: { service: 1 } } } })
})

t.test("a question's k sample lines make one answer, pooled as the per-request lane pools them", async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  for (const [at, label] of ['yes', 'no', 'yes', 'yes'].entries()) gathering.add(answer(`a:0s${at}of4`, label))
  gathering.add(answer('a:1', 'service'))
  const [a] = gathering.outcomes()
  t.match(a, {
    ok: true,
    result: {
      distributions: { is_spam: { yes: 0.75, no: 0.25 }, topic: { service: 1 } },
      requests: 5,
      inputTokens: 50,
      facts: { is_spam: { source: 'samples', samples: 4 }, topic: { source: 'text', samples: 1 } },
    },
  })
})

t.test('a question short of a sample is missing; samples of another k, or past k, are passed over', async (t) => {
  const gathering = gatherOutcomes(ITEMS)
  for (const line of [
    answer('a:0s0of3', 'yes'),
    answer('a:0s1of3', 'no'),
    answer('a:0s0of2', 'no'),
    answer('a:0s3of3', 'no'),
    answer('a:0', 'no'),
    answer('a:1', 'service'),
  ])
    gathering.add(line)
  t.same(gathering.outcomes()[0], { key: 'a', ok: false, reason: 'missing' })
  gathering.add(answer('a:0s2of3', 'yes'))
  t.match(gathering.outcomes()[0], {
    ok: true,
    result: { distributions: { is_spam: { yes: 0.666667, no: 0.333333 } } },
  })
})
