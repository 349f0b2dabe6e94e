import t from 'tap'
import {
  parseWireResponse,
  toWireQuestion,
  toWireRequest,
  WIRE_TYPES,
} from '../../../src/adapters/system-one/system-one-wire.ts'
import { EngineError } from '../../../src/errors.ts'
import { question, QUESTIONS } from '../../helpers/engine-contract.ts'

t.test('each spec question type has its System One type', async (t) => {
  t.same(WIRE_TYPES, { yes_no: 'noul', choice: 'choice', scale: 'score' })
})

t.test('a request keeps the model and state and puts each question under its name', async (t) => {
  const wire = toWireRequest({ model: 'jev-1.13.0', state: { message: 'hi', sender: '' }, questions: QUESTIONS })
  t.same(Object.keys(wire), ['model', 'state', 'questions'])
  t.same(wire.state, { message: 'hi', sender: '' })
  t.same(Object.keys(wire.questions), ['is_spam', 'topic', 'urgency'])
})

t.test('questions map to noul, choice and score with their criteria', async (t) => {
  t.same(toWireQuestion(question('q', 'yes_no', ['yes', 'no'], [null, 'Not at all'], 'Is it?')), {
    type: 'noul',
    instructions: 'Is it?',
    criteria: { false: 'Not at all' },
  })
  t.same(toWireQuestion(question('q', 'choice', ['a', 'b'], ['A thing', null], 'Which?')), {
    type: 'choice',
    instructions: 'Which?',
    criteria: { a: 'A thing', b: null },
  })
  t.same(toWireQuestion(question('q', 'scale', ['low', 'mid', 'high'], [null, 'Somewhat', null], 'How?')), {
    type: 'score',
    instructions: 'How?',
    criteria: ['low', 'Somewhat', 'high'],
  })
})

t.test('a yes probability gives no as its complement, without floating-point dust', async (t) => {
  const text = JSON.stringify({ model: 'm', answers: { is_spam: { noul: 0.93 } }, usage: { input_tokens: 1 } })
  const result = parseWireResponse(text, [QUESTIONS[0]])
  t.same(result.distributions.is_spam, { yes: 0.93, no: 0.07 })
})

t.test('answers to questions that were not asked are ignored', async (t) => {
  const answers = { topic: { probabilities: { personal: 1, promotion: 0, service: 0 } }, extra: { noul: 2 } }
  const text = JSON.stringify({ model: 'm', answers, usage: { input_tokens: 5, output_tokens: 1 } })
  t.same(parseWireResponse(text, [QUESTIONS[1]]), {
    model: 'm',
    distributions: { topic: { personal: 1, promotion: 0, service: 0 } },
    inputTokens: 5,
    outputTokens: 1,
  })
})

t.test('an unusable value is quoted in the message, shortened when long', async (t) => {
  const empty = JSON.stringify({ model: '', answers: {}, usage: {} })
  t.throws(() => parseWireResponse(empty, []), { message: /field "model" is ""/ })
  const long = JSON.stringify({ model: 'm', answers: 'y'.repeat(100), usage: {} })
  t.throws(() => parseWireResponse(long, []), { message: /field "answers" is "y{56}\.\.\.$/ })
  t.throws(() => parseWireResponse(long, []), EngineError)
})

t.test('confidence, temperature and option_mass are kept per question when given, and absent when not', async (t) => {
  const answers = {
    is_spam: { type: 'noul', noul: 0.9, temperature: 2.483, option_mass: 1 },
    topic: {
      type: 'choice',
      choice: 'personal',
      confidence: 0.6,
      probabilities: { personal: 0.8, promotion: 0.1, service: 0.1 },
      option_mass: 0.12,
    },
    urgency: { type: 'score', score: 0.4, probabilities: { 0: 0.6, 1: 0.4, 2: 0 } },
  }
  const result = parseWireResponse(JSON.stringify({ model: 'm', answers, usage: { input_tokens: 9 } }), QUESTIONS)
  t.same(result.facts, { is_spam: { temperature: 2.483, optionMass: 1 }, topic: { confidence: 0.6, optionMass: 0.12 } })
  const plain = parseWireResponse(
    JSON.stringify({ model: 'm', answers: { is_spam: { noul: 0.5, option_mass: null } }, usage: { input_tokens: 1 } }),
    [QUESTIONS[0]],
  )
  t.notOk('facts' in plain, 'nothing given, nothing made up (null reads as absent)')
})

t.test('an optional field out of its range is an unusable answer, since option_mass is stored', async (t) => {
  const bad = (field: string, value: unknown) =>
    JSON.stringify({ model: 'm', answers: { is_spam: { noul: 0.5, [field]: value } }, usage: { input_tokens: 1 } })
  t.throws(() => parseWireResponse(bad('option_mass', 1.5), [QUESTIONS[0]]), {
    message: /question "is_spam": field "option_mass" is 1.5, not a number in \[0, 1\]/,
  })
  t.throws(() => parseWireResponse(bad('confidence', 'high'), [QUESTIONS[0]]), {
    message: /field "confidence" is "high"/,
  })
  t.throws(() => parseWireResponse(bad('temperature', -1), [QUESTIONS[0]]), {
    message: /field "temperature" is -1, not a number from 0/,
  })
})
