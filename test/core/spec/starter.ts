import t from 'tap'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { judgmentNameOf, starterSpec, stateColumns } from '../../../src/core/spec/starter.ts'

t.test('a data file name becomes a judgment name', async (t) => {
  t.equal(judgmentNameOf('messages.tsv'), 'messages')
  t.equal(judgmentNameOf('Customer Mail (2024).csv'), 'customer-mail-2024')
  t.equal(judgmentNameOf('日本.csv'), 'judgment')
  t.equal(judgmentNameOf('rows'), 'rows')
})

t.test('the state leaves out identifiers, answers and names it cannot hold', async (t) => {
  const { state, left } = stateColumns(['id', 'label', 'message', 'customer_id', 'subject', '', 'other.q', 'message'])
  t.same(state, ['message', 'subject'])
  t.same(
    left.map((l) => l.column),
    ['id', 'label', 'customer_id', '(unnamed)', 'other.q'],
  )
  t.match(left[0].why, /every row a new state/)
  t.match(left[1].why, /answer key/)
  t.same(stateColumns(['id', 'label']).state, ['id', 'label'], 'never an empty state: then every usable column')
  t.same(stateColumns(['id', 'label']).left, [])
  t.same(stateColumns(['']).state, ['text'])
})

t.test('the starter spec loads, with one question of each type, act, and a key to fill in', async (t) => {
  const { text, state } = starterSpec('sms', ['label', 'message'], 'sms.tsv')
  const spec = parseSpec(text, '/p/sms.judge.yaml')
  t.equal(spec.name, 'sms')
  t.same(
    spec.state.map((c) => c.name),
    ['message'],
  )
  t.same(state, ['message'])
  t.same(
    spec.questions.map((q) => q.type),
    ['yes_no', 'choice', 'scale'],
  )
  t.same(Object.keys(spec.act), ['relevant'])
  t.equal(spec.data, '/p/sms.tsv')
  t.equal(spec.key, null)
  t.match(text, /^# key: sms\.key\.csv$/m)
  t.match(text, /^#   label: it looks like an answer/m)
})

t.test('column and file names YAML would misread are quoted', async (t) => {
  const { text } = starterSpec('x', ['yes', 'a: b', 'x'], 'my data.csv')
  const spec = parseSpec(text, '/p/x.judge.yaml')
  t.same(
    spec.state.map((c) => c.name),
    ['yes', 'a: b', 'x'],
  )
  t.equal(spec.data, '/p/my data.csv')
  t.match(starterSpec('x', ['m'], null).text, /^# data: rows\.csv$/m)
})
