import t from 'tap'
import { estimateMessageTokens, LABEL_SYSTEM, labelPrompt } from '../../src/adapters/label-prompt.ts'
import { toMessagesRequest } from '../../src/adapters/anthropic/anthropic-wire.ts'
import { toChatRequest } from '../../src/adapters/openai/openai-wire.ts'
import { QUESTIONS } from '../helpers/engine-contract.ts'

t.test('the prompt gives the data, the question, each label with its description, and asks for one', async (t) => {
  t.equal(
    labelPrompt({ message: 'hi' }, QUESTIONS[1]),
    'Data:\n{"message":"hi"}\n\nQuestion: What about topic?\n\nLabels:\n- personal: Chat between people\n' +
      '- promotion\n- service: Notices\n\nAnswer with one label.',
  )
  t.match(LABEL_SYSTEM, /exactly one of the labels listed/)
})

t.test('every chat engine asks the same words', async (t) => {
  const chat = toChatRequest('m', { message: 'hi' }, QUESTIONS[0])
  const messages = toMessagesRequest('m', { message: 'hi' }, QUESTIONS[0])
  t.same(
    chat.messages.map((m) => m.content),
    [messages.system, messages.messages[0].content],
  )
})

t.test('tokens are estimated at a quarter of the characters plus 8 a message', async (t) => {
  t.equal(estimateMessageTokens(['abcde', '']), 2 + 8 + 0 + 8)
})
