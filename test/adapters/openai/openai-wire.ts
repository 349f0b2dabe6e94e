import t from 'tap'
import {
  estimatePromptTokens,
  labelDistribution,
  labelMass,
  parseChatResponse,
  toChatRequest,
  toChatSample,
} from '../../../src/adapters/openai/openai-wire.ts'
import { question, QUESTIONS } from '../../helpers/engine-contract.ts'
import { promptLabels } from '../../helpers/openai-server.ts'

const [isSpam, topic, urgency] = QUESTIONS
const tok = (token: string, p: number) => ({ token, logprob: Math.log(p) })

t.test('a question becomes one request for one token with the top 20 alternatives', async (t) => {
  const request = toChatRequest('qwen', { message: 'WIN now' }, topic)
  t.match(request, { model: 'qwen', max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 20 })
  t.same(
    request.messages.map((m) => m.role),
    ['system', 'user'],
  )
  const user = request.messages[1].content
  t.match(user, /Data:\n\{"message":"WIN now"\}/)
  t.match(user, /Question: What about topic\?/)
  t.match(user, /Labels:\n- personal: Chat between people\n- promotion\n- service: Notices\n/)
  t.same(promptLabels(user), ['personal', 'promotion', 'service'], 'the labels read back from the prompt')
  t.same(
    toChatSample('qwen', { message: 'WIN now' }, topic, 1.2),
    { model: 'qwen', messages: request.messages, max_tokens: 1, temperature: 1.2 },
    'one of k samples: the same messages, hotter, no log probabilities',
  )
  t.equal(
    estimatePromptTokens(request),
    Math.ceil(request.messages[0].content.length / 4) + Math.ceil(user.length / 4) + 16,
  )
})

t.test('each label takes the probability of the tokens that begin it, normalized over the labels', async (t) => {
  const d = labelDistribution(
    topic,
    [tok(' pers', 0.5), tok('Prom', 0.2), tok('prom', 0.1), tok('The', 0.1), tok(' service', 0.1)],
    null,
  )
  t.same(d, { personal: 0.555556, promotion: 0.333333, service: 0.111111 })
})

t.test('a token beginning several labels is shared; a label no token begins gets 0', async (t) => {
  const q = question('mood', 'choice', ['pleased', 'pleading', 'angry'])
  t.same(labelDistribution(q, [tok('ple', 0.6), tok('plea', 0.2), tok('x', 0.2)], null), {
    pleased: 0.5,
    pleading: 0.5,
    angry: 0,
  })
})

t.test('case, leading space markers and underscores do not matter', async (t) => {
  const q = question('kind', 'choice', ['needs_review', 'fine'])
  t.same(labelDistribution(q, [tok('\u2581Needs', 0.75), tok('\u0120fine', 0.25)], null), {
    needs_review: 0.75,
    fine: 0.25,
  })
  t.same(labelDistribution(isSpam, [tok('YES', 0.9), tok(' no', 0.1)], null), { yes: 0.9, no: 0.1 })
})

t.test(
  'without matching log probabilities the answer text decides, and text naming no label is an error',
  async (t) => {
    t.same(labelDistribution(urgency, [], 'high'), { low: 0, medium: 0, high: 1 })
    t.same(labelDistribution(urgency, [tok('The', 1)], ' med'), { low: 0, medium: 1, high: 0 })
    t.throws(() => labelDistribution(urgency, [tok('Sure', 0.9)], 'Sure'), {
      name: 'EngineError',
      message: /question "urgency": the model answered "Sure", which begins none of the labels low, medium, high/,
    })
    t.throws(() => labelDistribution(urgency, [], null), {
      message: /the answer has no text, which begins none of the labels/,
    })
  },
)

t.test(
  'a completion gives the model, the distribution and the usage; anything missing is read leniently',
  async (t) => {
    const body = (over: object) =>
      JSON.stringify({
        model: 'qwen-7b',
        choices: [
          {
            message: { content: 'yes' },
            logprobs: {
              content: [{ token: 'yes', logprob: Math.log(0.8), top_logprobs: [tok('yes', 0.8), tok('no', 0.2)] }],
            },
          },
        ],
        usage: { prompt_tokens: 90, completion_tokens: 1 },
        ...over,
      })
    t.same(parseChatResponse(body({}), isSpam), {
      model: 'qwen-7b',
      distribution: { yes: 0.8, no: 0.2 },
      optionMass: 1,
      source: 'logprobs',
      promptTokens: 90,
      completionTokens: 1,
    })
    t.same(parseChatResponse(body({ model: '', usage: undefined }), isSpam), {
      model: null,
      distribution: { yes: 0.8, no: 0.2 },
      optionMass: 1,
      source: 'logprobs',
      promptTokens: null,
      completionTokens: null,
    })
    const onlyChosen = JSON.stringify({
      choices: [{ message: { content: 'no' }, logprobs: { content: [{ token: 'no', logprob: 0, top_logprobs: [] }] } }],
    })
    t.same(
      parseChatResponse(onlyChosen, isSpam).distribution,
      { yes: 0, no: 1 },
      'no alternatives: the chosen token alone',
    )
    const noLogprobs = JSON.stringify({ choices: [{ message: { content: 'yes' }, logprobs: null }] })
    t.same(parseChatResponse(noLogprobs, isSpam).distribution, { yes: 1, no: 0 })
    t.equal(parseChatResponse(noLogprobs, isSpam).optionMass, null, 'without log probabilities the mass is unknown')
    t.equal(parseChatResponse(noLogprobs, isSpam).source, 'text', 'the text decided')
    const offLabel = JSON.stringify({
      choices: [
        { message: { content: 'no' }, logprobs: { content: [{ token: 'The', logprob: 0, top_logprobs: [] }] } },
      ],
    })
    t.match(
      parseChatResponse(offLabel, isSpam),
      { distribution: { yes: 0, no: 1 }, source: 'text', optionMass: 0 },
      'listed tokens that begin no label: the text decides',
    )
    t.throws(() => parseChatResponse('<html>', isSpam), { message: /the body is not JSON/ })
    t.throws(() => parseChatResponse('[1]', isSpam), { message: /the body is \[1\], not a JSON object/ })
    t.throws(() => parseChatResponse('{"choices": []}', isSpam), {
      message: /question "is_spam": field "choices" is \[\]/,
    })
  },
)

t.test('the option mass is the probability of the listed tokens that begin a label, each token once', async (t) => {
  t.equal(labelMass(topic, [tok(' pers', 0.5), tok('Prom', 0.2), tok('The', 0.25), tok('\n', 0.05)]), 0.7)
  const q = question('mood', 'choice', ['pleased', 'pleading', 'angry'])
  t.equal(labelMass(q, [tok('ple', 0.6), tok('x', 0.4)]), 0.6, 'a token beginning two labels counts once')
  t.equal(labelMass(urgency, [tok('Sure', 0.9), tok('I', 0.05)]), 0, 'no listed token begins a label')
  t.equal(labelMass(isSpam, [tok('yes', 0.7), tok('Yes', 0.3000001)]), 1, 'never above 1')
})
