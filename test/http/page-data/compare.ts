import t from 'tap'
import { marginParam } from '../../../src/http/page-data/compare.ts'

t.test('margin is a share from 0 to below 1, 0.01 by default', async (t) => {
  t.equal(marginParam(null), 0.01)
  t.equal(marginParam('0.02'), 0.02)
  t.equal(marginParam('0'), 0)
  for (const bad of ['1', '-0.1', 'x', '0.5.1', ''])
    t.throws(() => marginParam(bad), { message: /margin must be a share from 0 to below 1/ }, bad)
})
