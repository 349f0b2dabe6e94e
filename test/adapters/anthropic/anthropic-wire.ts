import t from 'tap'
import {
  ANTHROPIC_VERSION,
  estimateMessagesTokens,
  MAX_ANSWER_TOKENS,
  parseMessage,
  readMessage,
  toMessagesRequest,
} from '../../../src/adapters/anthropic/anthropic-wire.ts'
import { LABEL_SYSTEM, labelPrompt } from '../../../src/adapters/label-prompt.ts'
import { QUESTIONS } from '../../helpers/engine-contract.ts'

const [IS_SPAM, TOPIC] = QUESTIONS
const STATE = { message: 'WIN A PRIZE' }

function message(text: string | null, extra: object = {}): string {
  return JSON.stringify({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5-20251001',
    content: text === null ? [] : [{ type: 'text', text }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 120, output_tokens: 2 },
    ...extra,
  })
}

t.test('a question is one Messages request: the shared prompt, room for a label, temperature 0', async (t) => {
  t.equal(ANTHROPIC_VERSION, '2023-06-01')
  t.same(toMessagesRequest('claude-x', STATE, TOPIC), {
    model: 'claude-x',
    max_tokens: MAX_ANSWER_TOKENS,
    system: LABEL_SYSTEM,
    messages: [{ role: 'user', content: labelPrompt(STATE, TOPIC) }],
    temperature: 0,
  })
  t.match(toMessagesRequest('claude-x', STATE, TOPIC, 0.8), { temperature: 0.8 }, 'one of k samples: hotter')
  const request = toMessagesRequest('claude-x', STATE, TOPIC)
  t.equal(
    estimateMessagesTokens(request),
    Math.ceil(LABEL_SYSTEM.length / 4) + 8 + Math.ceil(labelPrompt(STATE, TOPIC).length / 4) + 8,
  )
})

t.test(
  'the label the text names gets probability 1 and the others 0: no log probabilities, never unsure',
  async (t) => {
    t.same(parseMessage(message('promotion'), TOPIC), {
      model: 'claude-haiku-4-5-20251001',
      distribution: { personal: 0, promotion: 1, service: 0 },
      optionMass: null,
      source: 'text',
      promptTokens: 120,
      completionTokens: 2,
    })
    t.same(parseMessage(message(' Yes\n'), IS_SPAM).distribution, { yes: 1, no: 0 }, 'case and spaces do not matter')
    const split = JSON.stringify({
      content: [
        { type: 'text', text: 'pro' },
        { type: 'text', text: 'motion' },
      ],
    })
    t.same(parseMessage(split, TOPIC).distribution, { personal: 0, promotion: 1, service: 0 }, 'text blocks join')
    const thinking = JSON.stringify({
      content: [{ type: 'thinking', thinking: 'It sells a prize.' }, { type: 'text', text: 'yes' }, 7],
    })
    t.same(parseMessage(thinking, IS_SPAM).distribution, { yes: 1, no: 0 }, 'only text blocks are read')
  },
)

t.test('a message without model or usage says so with nulls, for the estimate to stand in', async (t) => {
  t.match(readMessage({ content: [{ type: 'text', text: 'no' }] }, IS_SPAM), {
    model: null,
    promptTokens: null,
    completionTokens: null,
  })
  t.match(readMessage({ content: [{ type: 'text', text: 'no' }], usage: { input_tokens: -1 } }, IS_SPAM), {
    promptTokens: null,
  })
})

t.test('an answer naming no label, or with no text, is unusable and names the question', async (t) => {
  t.throws(() => parseMessage(message('Sure, the answer is yes'), IS_SPAM), {
    name: 'EngineError',
    message:
      /question "is_spam": the model answered "Sure, the answer is yes", which begins none of the labels yes, no/,
  })
  t.throws(() => parseMessage(message(null), IS_SPAM), { message: /the answer has no text/ })
  t.throws(() => parseMessage('{"type": "message"}', IS_SPAM), {
    message: /question "is_spam": field "content" is missing/,
  })
  t.throws(() => parseMessage('<html>', IS_SPAM), { message: /not JSON/ })
})
