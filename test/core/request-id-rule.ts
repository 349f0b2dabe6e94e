import t from 'tap'
import { wellFormedId } from '../../src/core/request-id-rule.ts'

t.test('an id of 1 to 128 letters, digits and ._:/+=@- is well formed', async (t) => {
  for (const id of ['r', 'req_1', '0af7651916cd43dd8448eb211c80319c', 'a.b:c/d+e=f@g-h', 'x'.repeat(128)])
    t.ok(wellFormedId(id), JSON.stringify(id))
})

t.test('an empty, long, spaced, joined or non-ASCII id is not', async (t) => {
  for (const id of ['', 'x'.repeat(129), 'has space', 'new\nline', 'a,b', 'a, b', 'é', '<script>', 'quote"'])
    t.notOk(wellFormedId(id), JSON.stringify(id))
})
