import t from 'tap'
import type { QuestionAnswer } from '../../src/adapters/openai/openai-result.ts'
import { pooled, samplesFor, samplingOf } from '../../src/adapters/sampled-answer.ts'
import { QUESTIONS } from '../helpers/engine-contract.ts'

const TOPIC = QUESTIONS[1]

/** An answer of `distribution` (a label at 1, or a text that began several labels shared), as a wire reads it. */
function said(distribution: Record<string, number>, usage: Partial<QuestionAnswer['answer']> = {}): QuestionAnswer {
  return {
    answer: {
      model: null,
      distribution,
      optionMass: null,
      source: 'text',
      promptTokens: null,
      completionTokens: null,
      ...usage,
    },
    estimated: 10,
  }
}

t.test('an engine samples 5 answers at temperature 1 unless told; a request says its own k', async (t) => {
  t.same(samplingOf({}), { samples: 5, temperature: 1 })
  t.same(samplingOf({ samples: 2, sampleTemperature: 0.3 }), { samples: 2, temperature: 0.3 })
  t.equal(samplesFor({}, samplingOf({ samples: 2 })), 2)
  t.equal(samplesFor({ samples: 7 }, samplingOf({ samples: 2 })), 7)
})

t.test("k answers pool into each label's share, the usage and requests summed", async (t) => {
  const answer = pooled(TOPIC, [
    said({ personal: 1, promotion: 0, service: 0 }, { model: 'served', promptTokens: 40, completionTokens: 2 }),
    said({ personal: 0, promotion: 1, service: 0 }, { promptTokens: 40, completionTokens: 2 }),
    said({ personal: 0, promotion: 1, service: 0 }),
  ])
  t.same(answer, {
    answer: {
      model: 'served',
      distribution: { personal: 0.333333, promotion: 0.666667, service: 0 },
      optionMass: null,
      source: 'text',
      promptTokens: 40 + 40 + 10,
      completionTokens: 2 + 2 + 1,
    },
    estimated: 30,
    requests: 3,
    samples: 3,
  })
})

t.test('an answer beginning two labels counts half for each; answers that are not samples are only paid', async (t) => {
  const answer = pooled(
    TOPIC,
    [said({ personal: 0.5, promotion: 0.5, service: 0 }), said({ personal: 0, promotion: 0, service: 1 })],
    [said({ personal: 1, promotion: 0, service: 0 }, { model: 'first', promptTokens: 7 })],
  )
  t.same(answer.answer.distribution, { personal: 0.25, promotion: 0.25, service: 0.5 })
  t.match(answer, { answer: { model: 'first', promptTokens: 27, completionTokens: 3 }, requests: 3, samples: 2 })
})
