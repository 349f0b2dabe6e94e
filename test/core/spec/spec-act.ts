import t from 'tap'
import { parseAct } from '../../../src/core/spec/spec-act.ts'
import { parseQuestions } from '../../../src/core/spec/spec-questions.ts'
import { readYaml } from '../../../src/core/spec/spec-yaml.ts'

const file = '/specs/spam.judge.yaml'
const questions = parseQuestions(
  readYaml('is_spam: {ask: Spam?, type: yes_no}\ntopic: {ask: About?, labels: [personal, promotion, service]}\n', file),
  file,
)
const parse = (yaml: string) => parseAct(readYaml(yaml, file), questions, file)
const fails = (keyPath: string, problem: string) => ({
  name: 'SpecError',
  file,
  keyPath,
  message: `${file}: ${keyPath}: ${problem}`,
})

t.test('reads the rules of each question in order', async (t) => {
  const act = parse(`
is_spam:
  - route: block
    when: {label: yes, p: ">= 0.95"}
  - route: review
    when: {margin: "< 0.3"}
  - route: deliver
`)
  t.same(act.is_spam, [
    { route: 'block', when: { label: ['yes'], p: { op: '>=', value: 0.95, text: '>= 0.95' } } },
    { route: 'review', when: { margin: { op: '<', value: 0.3, text: '< 0.3' } } },
    { route: 'deliver', when: {} },
  ])
  t.equal(act.topic, undefined)
})

t.test('reads a list of labels as any of them', async (t) => {
  const act = parse('topic: [{route: inbox, when: {label: [personal, service]}}]\n')
  t.same(act.topic[0].when.label, ['personal', 'service'])
})

t.test('reads an empty when, or none, as a rule that always holds', async (t) => {
  const act = parse('topic: [{route: a, when: {}}, {route: b, when: }]\n')
  t.same(act.topic, [
    { route: 'a', when: {} },
    { route: 'b', when: {} },
  ])
})

t.test('is empty when the spec has no act, without inherited keys', async (t) => {
  t.same(parseAct(undefined, questions, file), {})
  const act = parseAct(null, questions, file)
  t.equal(act.constructor, undefined)
  t.equal(act.toString, undefined)
})

t.test('rejects rules for a question the spec does not ask', async (t) => {
  t.throws(
    () => parse('colour: [{route: x}]\n'),
    fails('act.colour', 'there is no question "colour"; the questions are is_spam, topic'),
  )
})

t.test('rejects a question whose rules are not a non-empty list', async (t) => {
  t.throws(() => parse('is_spam: {route: block}\n'), fails('act.is_spam', 'must be a list, not a mapping'))
  t.throws(
    () => parse('is_spam: []\n'),
    fails('act.is_spam', 'needs at least one rule (or leave the question out of act)'),
  )
  t.throws(() => parse('[is_spam]\n'), fails('act', 'must be a mapping, not a list'))
})

t.test('rejects a rule without a route or with unknown keys', async (t) => {
  t.throws(() => parse('is_spam: [block]\n'), fails('act.is_spam[0]', 'must be a mapping, not the text "block"'))
  t.throws(() => parse('is_spam: [{route: a}, {when: {label: yes}}]\n'), fails('act.is_spam[1].route', 'is required'))
  t.throws(() => parse('is_spam: [{route: ""}]\n'), fails('act.is_spam[0].route', 'must not be empty'))
  t.throws(
    () => parse('is_spam: [{route: a, if: {label: yes}}]\n'),
    fails('act.is_spam[0].if', 'unknown key; the known keys are route, when'),
  )
  t.throws(
    () => parse('is_spam: [{route: a, when: {labels: yes}}]\n'),
    fails('act.is_spam[0].when.labels', 'unknown key (did you mean label?); the known keys are label, p, margin'),
  )
  t.throws(
    () => parse('is_spam: [{route: a, when: [yes]}]\n'),
    fails('act.is_spam[0].when', 'must be a mapping, not a list'),
  )
})

t.test('rejects labels the question does not have', async (t) => {
  t.throws(
    () => parse('is_spam: [{route: a, when: {label: maybe}}]\n'),
    fails('act.is_spam[0].when.label', '"maybe" is not a label of is_spam; its labels are yes, no'),
  )
  t.throws(
    () => parse('topic: [{route: a, when: {label: [personal, spam]}}]\n'),
    fails('act.topic[0].when.label[1]', '"spam" is not a label of topic; its labels are personal, promotion, service'),
  )
  t.throws(
    () => parse('topic: [{route: a, when: {label: 3}}]\n'),
    fails(
      'act.topic[0].when.label',
      'the number 3 is not a label of topic; its labels are personal, promotion, service',
    ),
  )
  t.throws(
    () => parse('topic: [{route: a, when: {label: []}}]\n'),
    fails('act.topic[0].when.label', 'needs at least one label'),
  )
})

t.test('rejects p and margin that are not comparisons', async (t) => {
  t.throws(
    () => parse('is_spam: [{route: a, when: {p: 0.9}}]\n'),
    fails('act.is_spam[0].when.p', 'needs an operator: write ">= 0.9" or "< 0.9", not a bare 0.9'),
  )
  t.throws(() => parse('is_spam: [{route: a, when: {margin: "<< 0.3"}}]\n'), {
    keyPath: 'act.is_spam[0].when.margin',
    message: /"<< 0.3" is not a comparison/,
  })
})
