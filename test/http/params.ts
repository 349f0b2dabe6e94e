import t from 'tap'
import { param } from '../../src/http/params.ts'

t.test('a parameter is its value; absent or empty (an empty form field) is null', async (t) => {
  t.equal(param(new URLSearchParams('node=a'), 'node'), 'a')
  t.equal(param(new URLSearchParams('node='), 'node'), null)
  t.equal(param(new URLSearchParams(''), 'node'), null)
  t.equal(param(new URLSearchParams('node=%20'), 'node'), ' ', 'a space is a value')
})

t.test('a parameter given twice is its first value', async (t) => {
  t.equal(param(new URLSearchParams('node=a&node=b'), 'node'), 'a')
  t.equal(param(new URLSearchParams('node=&node=b'), 'node'), null)
})
