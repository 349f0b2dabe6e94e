import t from 'tap'
import { missingColumnHint, stateHash, stateOf, stateValue } from '../../../src/core/judge/state.ts'
import { sha256 } from '../../../src/core/hash.ts'
import { InputError } from '../../../src/errors.ts'

const columns = [{ name: 'message' }, { name: 'n' }]

t.test('values become strings: numbers and booleans as JSON, null as empty, objects as JSON', async (t) => {
  t.equal(stateValue('text'), 'text')
  t.equal(stateValue(3.5), '3.5')
  t.equal(stateValue(true), 'true')
  t.equal(stateValue(null), '')
  t.equal(stateValue(undefined), '')
  t.equal(stateValue({ a: [1] }), '{"a":[1]}')
})

t.test('the state keeps the state columns in spec order and ignores extra ones', async (t) => {
  const state = stateOf({ n: 2, extra: 'x', message: 'hi' }, columns, 'row')
  t.same(Object.keys(state), ['message', 'n'])
  t.same(state, { message: 'hi', n: '2' })
})

t.test('a CSV row and a JSON row with the same values have the same state hash', async (t) => {
  t.equal(
    stateHash(stateOf({ message: 'hi', n: '2' }, columns, 'csv')),
    stateHash(stateOf({ message: 'hi', n: 2 }, columns, 'json')),
  )
})

t.test('the state hash is the first 16 hex digits of SHA-256 of the state JSON', async (t) => {
  const state = { message: 'hi' }
  t.equal(stateHash(state), sha256('{"message":"hi"}').slice(0, 16))
  t.match(stateHash(state), /^[0-9a-f]{16}$/)
})

t.test('a missing column is an error naming it and where', async (t) => {
  t.throws(
    () => stateOf({ message: 'hi' }, columns, 'data.csv:3'),
    new InputError('data.csv:3: the row lacks the state column "n"'),
  )
})

t.test('a missing column is told with the nearest column the row has and every column', async (t) => {
  t.equal(
    missingColumnHint('mesage', { id: '1', message: 'hi' }),
    ' (did you mean "message"?); its columns are "id", "message"',
  )
  t.equal(missingColumnHint('body', { id: '1', message: 'hi' }), '; its columns are "id", "message"')
})

t.test('a row of one column holding a separator hints at --delimiter and delimiter:', async (t) => {
  t.equal(
    missingColumnHint('message', { 'id;message': '1;hi' }),
    '; its columns are "id;message"; the header is one column holding ";": read the file with --delimiter \';\', or set delimiter: ";" in the spec',
  )
  t.match(
    missingColumnHint('message', { 'id\tmessage': '1' }),
    /holding tabs: read the file with --delimiter tab, or set delimiter: tab in the spec$/,
  )
  t.notMatch(missingColumnHint('message', { text: 'hi' }), /delimiter/)
})

t.test('a long header is listed up to twenty columns; a row of none says so', async (t) => {
  const row = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`c${i}`, '']))
  t.match(missingColumnHint('zzzz', row), /"c19" and 5 more$/)
  t.equal(missingColumnHint('message', {}), '; the row has no columns')
})
