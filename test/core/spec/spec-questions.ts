import t from 'tap'
import { questionFingerprint } from '../../../src/core/spec/fingerprint.ts'
import { parseQuestions } from '../../../src/core/spec/spec-questions.ts'
import { readYaml } from '../../../src/core/spec/spec-yaml.ts'

const file = '/specs/spam.judge.yaml'
const parse = (yaml: string) => parseQuestions(readYaml(yaml, file), file)
const fails = (keyPath: string, problem: string) => ({
  name: 'SpecError',
  file,
  keyPath,
  message: `${file}: ${keyPath}: ${problem}`,
})

t.test('reads a yes_no question with the fixed labels yes and no', async (t) => {
  const [q] = parse('is_spam:\n  ask: Is this spam?\n  type: yes_no\n')
  t.same(q, {
    name: 'is_spam',
    ask: 'Is this spam?',
    type: 'yes_no',
    labels: ['yes', 'no'],
    descriptions: [null, null],
    fingerprint: questionFingerprint('yes_no', 'Is this spam?', ['yes', 'no'], [null, null]),
  })
})

t.test('reads the yes and no descriptions of a yes_no question', async (t) => {
  const [q] = parse('is_spam: {ask: Spam?, type: yes_no, yes: Advertising or a scam, no: "  "}\n')
  t.same(q.descriptions, ['Advertising or a scam', null])
})

t.test('reads a choice question, the default type, from a list of labels', async (t) => {
  const [q] = parse('topic: {ask: About what?, labels: [personal, promotion, service]}\n')
  t.equal(q.type, 'choice')
  t.same(q.labels, ['personal', 'promotion', 'service'])
  t.same(q.descriptions, [null, null, null])
})

t.test('reads labels and their descriptions from a mapping, in spec order', async (t) => {
  const [q] = parse(
    'topic:\n  ask: About what?\n  labels:\n    service: Notices\n    personal:\n    promotion: "  Offers  "\n',
  )
  t.same(q.labels, ['service', 'personal', 'promotion'])
  t.same(q.descriptions, ['Notices', null, 'Offers'])
  t.equal(q.fingerprint, questionFingerprint('choice', 'About what?', q.labels, q.descriptions))
})

t.test('reads a scale question with its levels ordered low to high', async (t) => {
  const [q] = parse('urgency: {ask: How urgent?, type: scale, labels: [low, medium, high]}\n')
  t.equal(q.type, 'scale')
  t.same(q.labels, ['low', 'medium', 'high'])
  const [mapped] = parse('urgency: {ask: How urgent?, type: scale, labels: {low: Can wait, high: Act now}}\n')
  t.same(mapped.descriptions, ['Can wait', 'Act now'])
})

t.test('drops the white space around the question and its descriptions', async (t) => {
  const [q] = parse('is_spam:\n  type: yes_no\n  ask: >\n    Is this message\n    spam?\n')
  t.equal(q.ask, 'Is this message spam?')
})

t.test('keeps questions in spec order', async (t) => {
  const names = parse('b: {ask: B?, type: yes_no}\na: {ask: A?, type: yes_no}\n').map((q) => q.name)
  t.same(names, ['b', 'a'])
})

t.test('gives a different fingerprint exactly when what the engine sees changes', async (t) => {
  const base = parse('q: {ask: About what?, labels: {a: A, b: B}}\n')[0].fingerprint
  t.equal(parse('q:   {labels: {a: A, b: B}, ask: "About what?"}\n')[0].fingerprint, base)
  t.not(parse('q: {ask: About what now?, labels: {a: A, b: B}}\n')[0].fingerprint, base)
  t.not(parse('q: {ask: About what?, labels: {a: A, b: Bee}}\n')[0].fingerprint, base)
  t.not(parse('q: {ask: About what?, labels: {b: B, a: A}}\n')[0].fingerprint, base)
  t.not(parse('q: {ask: About what?, type: scale, labels: {a: A, b: B}}\n')[0].fingerprint, base)
})

t.test('rejects questions that are not a non-empty mapping', async (t) => {
  t.throws(() => parse('[a, b]\n'), fails('questions', 'must be a mapping, not a list'))
  t.throws(() => parse('{}\n'), fails('questions', 'needs at least one question'))
  t.throws(
    () => parse('is_spam: Is this spam?\n'),
    fails('questions.is_spam', 'must be a mapping, not the text "Is this spam?"'),
  )
})

t.test('rejects question names outside [a-z0-9_]+', async (t) => {
  const problem = 'a question name must be lowercase letters, digits and _ ([a-z0-9_]+)'
  for (const name of ['Topic', 'is-spam', 'is spam', '__proto__', '""']) {
    t.throws(
      () => parse(`${name}: {ask: x, type: yes_no}\n`),
      { keyPath: /^questions\./, message: new RegExp(`: ${problem.replace(/[()[\]+]/g, '\\$&')}$`) },
      name,
    )
  }
})

t.test('requires the question text', async (t) => {
  t.throws(() => parse('q: {type: yes_no}\n'), fails('questions.q.ask', 'is required'))
  t.throws(() => parse('q: {type: yes_no, ask: ""}\n'), fails('questions.q.ask', 'must not be empty'))
  t.throws(() => parse('q: {type: yes_no, ask: [a]}\n'), fails('questions.q.ask', 'must be text, not a list'))
})

t.test('rejects an unknown type, listing the three', async (t) => {
  t.throws(
    () => parse('q: {ask: x, type: boolean}\n'),
    fails('questions.q.type', 'must be one of yes_no, choice, scale, not the text "boolean"'),
  )
})

t.test('rejects labels on a yes_no question and yes/no on the others', async (t) => {
  t.throws(
    () => parse('q: {ask: x, type: yes_no, labels: [yes, no]}\n'),
    fails(
      'questions.q.labels',
      'a yes_no question has the fixed labels yes and no; describe them with yes: and no: instead',
    ),
  )
  t.throws(
    () => parse('q: {ask: x, labels: [a, b], yes: Yes}\n'),
    fails('questions.q.yes', 'unknown key; the known keys are ask, type, labels'),
  )
  t.throws(
    () => parse('q: {ask: x, type: yes_no, colour: red}\n'),
    fails('questions.q.colour', 'unknown key; the known keys are ask, type, yes, no'),
  )
  t.throws(
    () => parse('q: {ask: x, type: yes_no, yes: [a]}\n'),
    fails('questions.q.yes', 'a description must be text, not a list'),
  )
})

t.test('requires labels for a choice question, hinting at yes_no', async (t) => {
  t.throws(
    () => parse('q: {ask: Is it spam?}\n'),
    fails(
      'questions.q.labels',
      'is required for a choice question (the default type; a yes/no question needs type: yes_no)',
    ),
  )
  t.throws(() => parse('q: {ask: x, type: scale}\n'), fails('questions.q.labels', 'is required'))
  t.throws(
    () => parse('q: {ask: x, labels: one}\n'),
    fails('questions.q.labels', 'must be a mapping, not the text "one"'),
  )
})

t.test('needs at least 2 labels for a choice and 2 to 10 levels for a scale', async (t) => {
  t.throws(() => parse('topic: {ask: x, labels: [only]}\n'), fails('questions.topic.labels', 'needs at least 2 labels'))
  t.throws(
    () => parse('topic: {ask: x, labels: {only: One}}\n'),
    fails('questions.topic.labels', 'needs at least 2 labels'),
  )
  t.throws(
    () => parse('level: {ask: x, type: scale, labels: [low]}\n'),
    fails('questions.level.labels', 'a scale needs 2 to 10 levels, not 1'),
  )
  const eleven = Array.from({ length: 11 }, (_, i) => `l${i}`).join(', ')
  t.throws(
    () => parse(`level: {ask: x, type: scale, labels: [${eleven}]}\n`),
    fails('questions.level.labels', 'a scale needs 2 to 10 levels, not 11'),
  )
  const ten = Array.from({ length: 10 }, (_, i) => `l${i}`).join(', ')
  t.equal(parse(`level: {ask: x, type: scale, labels: [${ten}]}\n`)[0].labels.length, 10)
  t.equal(parse('q: {ask: x, labels: [a, b]}\n')[0].labels.length, 2)
})

t.test('rejects a label listed twice', async (t) => {
  t.throws(
    () => parse('q: {ask: x, labels: [a, b, a]}\n'),
    fails('questions.q.labels[2]', 'the label "a" is listed twice'),
  )
})

t.test('rejects labels that are not clean text', async (t) => {
  t.throws(
    () => parse('q: {ask: x, type: scale, labels: [1, 2, 3]}\n'),
    fails('questions.q.labels[0]', 'a label must be text, not the number 1; quote it: "1"'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: [a, true]}\n'),
    fails('questions.q.labels[1]', 'a label must be text, not the boolean true; quote it: "true"'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: [a, [b]]}\n'),
    fails('questions.q.labels[1]', 'a label must be text, not a list'),
  )
  t.throws(() => parse('q: {ask: x, labels: [a, ""]}\n'), fails('questions.q.labels[1]', 'a label must not be empty'))
  t.throws(
    () => parse('q: {ask: x, labels: [a, " b"]}\n'),
    fails('questions.q.labels[1]', 'the label " b" starts or ends with white space'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: [a, "b\\nc"]}\n'),
    fails('questions.q.labels[1]', 'the label "b\\nc" holds a control character'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: {a: A, "b ": B}}\n'),
    fails('questions.q.labels.b ', 'the label "b " starts or ends with white space'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: {1: A, 2: B}}\n'),
    fails('questions.q.labels', 'keys must be text: quote 1 as "1"'),
  )
  t.throws(
    () => parse('q: {ask: x, labels: {a: A, b: 2}}\n'),
    fails('questions.q.labels.b', 'a description must be text, not the number 2'),
  )
})
