import t from 'tap'
import { missingColumnHint } from '../../../src/core/judge/missing-column.ts'

t.test('a missing column is told with the nearest column the row has and every column', async (t) => {
  t.equal(missingColumnHint('mesage', { id: '1', message: 'hi' }), ' (did you mean "message"?); its columns are "id", "message"')
  t.equal(missingColumnHint('body', { id: '1', message: 'hi' }), '; its columns are "id", "message"')
})

t.test('a row of one column holding a separator hints at --delimiter and delimiter:', async (t) => {
  t.equal(missingColumnHint('message', { 'id;message': '1;hi' }),
    '; its columns are "id;message"; the header is one column holding ";": read the file with --delimiter \';\', or set delimiter: ";" in the spec')
  t.match(missingColumnHint('message', { 'id\tmessage': '1' }), /holding tabs: read the file with --delimiter tab, or set delimiter: tab in the spec$/)
  t.notMatch(missingColumnHint('message', { text: 'hi' }), /delimiter/)
})

t.test('a long header is listed up to twenty columns; a row of none says so', async (t) => {
  const row = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`c${i}`, '']))
  t.match(missingColumnHint('zzzz', row), /"c19" and 5 more$/)
  t.equal(missingColumnHint('message', {}), '; the row has no columns')
})
