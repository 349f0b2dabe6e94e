import t from 'tap'
import { pairedDifference } from '../../../src/core/compare/paired.ts'
import { mcnemarExact } from '../../../src/core/stats/mcnemar.ts'
import { newcombeInterval } from '../../../src/core/stats/newcombe.ts'

t.test("the paired difference is candidate minus live, with Newcombe's interval and McNemar's p value", async (t) => {
  const d = pairedDifference({ both: 12, candidate: 9, live: 2, neither: 21 })!
  t.equal(d.rows, 44)
  t.ok(Math.abs(d.difference - 7 / 44) < 1e-12)
  t.ok(d.interval[0] < d.difference && d.difference < d.interval[1])
  t.same(
    d.interval,
    newcombeInterval({ both: 12, firstOnly: 9, secondOnly: 2, neither: 21 }),
    'the candidate is the first side',
  )
  t.ok(Math.abs(d.p_value - mcnemarExact(9, 2)) < 1e-12)
})

t.test('no rows, no figure; all pairs alike, an interval around 0 that is not a point', async (t) => {
  t.equal(pairedDifference({ both: 0, candidate: 0, live: 0, neither: 0 }), null)
  const same = pairedDifference({ both: 30, candidate: 0, live: 0, neither: 10 })!
  t.equal(same.difference, 0)
  t.ok(same.interval[0] < 0 && same.interval[1] > 0)
  t.equal(same.p_value, 1)
})
