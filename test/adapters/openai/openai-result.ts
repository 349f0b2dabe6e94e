import t from 'tap'
import { chatResult } from '../../../src/adapters/openai/openai-result.ts'
import type { ChatAnswer } from '../../../src/adapters/openai/openai-wire.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'

const REQUEST = { model: 'asked-model', state: { message: 'hi' }, questions: QUESTIONS.slice(0, 2) }

const answer = (fields: Partial<ChatAnswer>): ChatAnswer => ({
  model: null,
  distribution: { yes: 1, no: 0 },
  optionMass: null,
  source: 'text',
  promptTokens: null,
  completionTokens: null,
  ...fields,
})

t.test(
  "a row's answers become one result: usage summed, how p came and option masses kept, the server's model",
  async (t) => {
    const result = chatResult(REQUEST, [
      {
        answer: answer({
          model: 'served-model',
          optionMass: 0.9,
          source: 'logprobs',
          promptTokens: 40,
          completionTokens: 1,
        }),
        estimated: 99,
      },
      { answer: answer({ distribution: { personal: 1 }, promptTokens: 50, completionTokens: 2 }), estimated: 99 },
    ])
    t.same(result, {
      model: 'served-model',
      distributions: { is_spam: { yes: 1, no: 0 }, topic: { personal: 1 } },
      inputTokens: 90,
      outputTokens: 3,
      requests: 2,
      facts: { is_spam: { source: 'logprobs', optionMass: 0.9 }, topic: { source: 'text', samples: 1 } },
    })
  },
)

t.test('without usage the estimate and one output token count; without a model named, the one asked', async (t) => {
  const result = chatResult(REQUEST, [
    { answer: answer({}), estimated: 30 },
    { answer: answer({}), estimated: 40 },
  ])
  t.match(result, { model: 'asked-model', inputTokens: 70, outputTokens: 2, requests: 2 })
  t.same(result.facts, { is_spam: { source: 'text', samples: 1 }, topic: { source: 'text', samples: 1 } })
})

t.test(
  "an answer pooled from samples says so, and counts its requests; a text answer keeps the tokens' mass",
  async (t) => {
    const result = chatResult(REQUEST, [
      { answer: answer({ optionMass: 0.01, promptTokens: 10 }), estimated: 10 },
      { answer: answer({ distribution: { personal: 0.6 }, promptTokens: 50 }), estimated: 50, requests: 6, samples: 5 },
    ])
    t.same(result.facts, {
      is_spam: { source: 'text', samples: 1, optionMass: 0.01 },
      topic: { source: 'samples', samples: 5 },
    })
    t.match(result, { requests: 7, inputTokens: 60 })
  },
)
