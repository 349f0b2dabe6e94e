import t from 'tap'
import { COMPARE_KIND } from '../../../src/core/review/comparison-verdict.ts'
import { KINDS } from '../../../src/core/review/verdicts.ts'

t.test('comparison verdicts have a kind of their own, never one the review queue offers', async (t) => {
  t.equal(COMPARE_KIND, 'compare')
  t.notOk((KINDS as readonly string[]).includes(COMPARE_KIND))
})
