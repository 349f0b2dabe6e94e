import t from 'tap'
import { mcnemarExact } from '../../../src/core/stats/mcnemar.ts'

t.test("McNemar's exact p value is twice the binomial tail of the rarer discordant count", async (t) => {
  t.equal(mcnemarExact(0, 0), 1)
  t.equal(mcnemarExact(5, 5), 1, 'balanced: capped at 1')
  t.ok(Math.abs(mcnemarExact(0, 6) - 2 / 64) < 1e-12, '2·(½)⁶')
  t.ok(Math.abs(mcnemarExact(1, 9) - (2 * 11) / 1024) < 1e-12, '2·(1 + 10)/2¹⁰')
  t.ok(mcnemarExact(1000, 1200) < 1e-4 && mcnemarExact(1000, 1200) > 0, 'large counts, summed in logs')
})

t.test('the test is two-sided: the same p whichever side is right more often', async (t) => {
  t.equal(mcnemarExact(2, 9), mcnemarExact(9, 2))
})
