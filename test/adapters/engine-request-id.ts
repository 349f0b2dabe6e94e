import t from 'tap'
import { engineRequestId } from '../../src/adapters/engine-request-id.ts'
import { requestIdOf } from '../../src/http/ops/request-id.ts'

const KEY = 'sk-live-0123456789abcdefXYZ'

t.test("an engine's request id is kept by the rule of X-Request-Id, and dropped otherwise", async (t) => {
  const samples = [
    'req_1',
    '0af7651916cd43dd8448eb211c80319c',
    'a.b:c/d+e=f@g-h',
    'x'.repeat(128),
    'x'.repeat(129),
    '',
    'has space',
    'new\nline',
    'quote"',
    'é',
    '<script>',
    'a,b',
  ]
  for (const id of samples)
    t.equal(engineRequestId(id, []) === id, requestIdOf(id) === id, `${JSON.stringify(id)}: as X-Request-Id is`)
  t.equal(engineRequestId('req 1', []), null, 'a bad id is dropped, not replaced: no made-up id')
  t.equal(engineRequestId(null, []), null)
  t.equal(engineRequestId(undefined, []), null)
})

t.test('an id holding a secret, or a run of 8 of its characters, is dropped; others are kept', async (t) => {
  t.equal(engineRequestId(KEY, [KEY]), null, 'the key itself')
  t.equal(engineRequestId(`req_${KEY}_1`, [KEY]), null, 'the key inside it')
  t.equal(engineRequestId(KEY.slice(3, 11), [KEY]), null, 'a piece of the key')
  t.equal(engineRequestId(`req-${KEY.slice(10, 18)}`, [KEY]), null, '8 characters of the key in a row')
  t.equal(engineRequestId(`req-${KEY.slice(10, 17)}`, [KEY]), `req-${KEY.slice(10, 17)}`, '7 are kept')
  t.equal(engineRequestId('server-token-abcdefgh', [null, KEY, 'server-token-abcdefgh']), null, 'any secret given')
  t.equal(engineRequestId('req_1', [null, KEY]), 'req_1', 'an id sharing nothing with the secrets')
  t.equal(engineRequestId('req_1', ['']), 'req_1', 'an empty secret is none')
})
