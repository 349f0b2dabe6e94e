import t from 'tap'
import { ALLOCATION_RULES } from '../../../src/core/spec/allocation-rule.ts'

t.test("neyman is the default rule, fixed the seed's order", async (t) => {
  t.same(ALLOCATION_RULES, ['neyman', 'fixed'])
})
