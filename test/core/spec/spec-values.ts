import t from 'tap'
import {
  asList,
  asMap,
  asText,
  asUnit,
  checkKeys,
  describe,
  itemOf,
  keyOf,
  optional,
  required,
} from '../../../src/core/spec/spec-values.ts'

const file = '/specs/spam.judge.yaml'

t.test('builds key paths from keys and list positions', async (t) => {
  t.equal(keyOf('', 'questions'), 'questions')
  t.equal(keyOf('questions', 'topic'), 'questions.topic')
  t.equal(itemOf('state', 1), 'state[1]')
  t.equal(keyOf(itemOf('act.is_spam', 0), 'when'), 'act.is_spam[0].when')
})

t.test('describes each kind of value for messages', async (t) => {
  t.equal(describe(null), 'empty')
  t.equal(describe(undefined), 'empty')
  t.equal(describe([1]), 'a list')
  t.equal(describe(new Map()), 'a mapping')
  t.equal(describe('x"y'), 'the text "x\\"y"')
  t.equal(describe(3), 'the number 3')
  t.equal(describe(false), 'the boolean false')
})

t.test('accepts a mapping with text keys and rejects anything else', async (t) => {
  const map = new Map([['a', 1]])
  t.equal(asMap(map, file, 'questions'), map)
  t.throws(() => asMap([], file, 'questions'), {
    keyPath: 'questions',
    message: `${file}: questions: must be a mapping, not a list`,
  })
  t.throws(() => asMap(new Map([[1, 'low']]), file, 'questions.level.labels'), {
    message: `${file}: questions.level.labels: keys must be text: quote 1 as "1"`,
  })
})

t.test('accepts a list and rejects anything else', async (t) => {
  t.same(asList(['x'], file, 'state'), ['x'])
  t.throws(() => asList('message', file, 'state'), {
    message: `${file}: state: must be a list, not the text "message"`,
  })
})

t.test('reads text without its surrounding white space and rejects empty text', async (t) => {
  t.equal(asText('  Is it spam?\n', file, 'questions.is_spam.ask'), 'Is it spam?')
  t.throws(() => asText(' \n', file, 'questions.is_spam.ask'), {
    message: `${file}: questions.is_spam.ask: must not be empty`,
  })
  t.throws(() => asText(42, file, 'model'), { message: `${file}: model: must be text, not the number 42` })
})

t.test('accepts numbers from 0 to 1 only', async (t) => {
  t.equal(asUnit(0, file, 'unsure_below'), 0)
  t.equal(asUnit(1, file, 'unsure_below'), 1)
  for (const value of [-0.1, 1.01, Number.NaN, Number.POSITIVE_INFINITY, '0.5']) {
    t.throws(() => asUnit(value, file, 'unsure_below'), {
      keyPath: 'unsure_below',
      message: /must be a number from 0 to 1, not /,
    })
  }
})

t.test('treats an empty value like an absent key', async (t) => {
  const map = new Map<string, unknown>([
    ['model', null],
    ['data', 'x.csv'],
  ])
  t.equal(optional(map, 'model'), undefined)
  t.equal(optional(map, 'key'), undefined)
  t.equal(optional(map, 'data'), 'x.csv')
  t.equal(required(map, 'data', file, ''), 'x.csv')
  t.throws(() => required(map, 'model', file, ''), { keyPath: 'model', message: `${file}: model: is required` })
  t.throws(() => required(map, 'ask', file, 'questions.x', '; say what to ask'), {
    message: `${file}: questions.x.ask: is required; say what to ask`,
  })
})

t.test('rejects an unknown key, naming it and listing the known ones', async (t) => {
  const known = ['route', 'when']
  t.doesNotThrow(() => checkKeys(new Map([['route', 'x']]), known, file, 'act.a[0]'))
  t.throws(() => checkKeys(new Map([['colour', 'x']]), known, file, 'act.a[0]'), {
    keyPath: 'act.a[0].colour',
    message: `${file}: act.a[0].colour: unknown key; the known keys are route, when`,
  })
})

t.test('suggests the known key an unknown one is probably a typo of', async (t) => {
  const known = ['questions', 'state', 'unsure_below']
  t.throws(() => checkKeys(new Map([['question', 1]]), known, file, ''), {
    message: /question: unknown key \(did you mean questions\?\)/,
  })
  t.throws(() => checkKeys(new Map([['State', 1]]), known, file, ''), {
    message: /State: unknown key \(did you mean state\?\)/,
  })
  t.throws(() => checkKeys(new Map([['unsure-below', 1]]), known, file, ''), { message: /did you mean unsure_below\?/ })
  t.throws(() => checkKeys(new Map([['rows', 1]]), known, file, ''), {
    message: `${file}: rows: unknown key; the known keys are questions, state, unsure_below`,
  })
})
