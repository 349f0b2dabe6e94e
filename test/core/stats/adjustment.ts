import t from 'tap'
import { ADJUSTMENT, adjustedShare } from '../../../src/core/stats/adjustment.ts'
import { Z95 } from '../../../src/core/stats/wilson.ts'

t.test("the adjustment is half of Agresti and Coull's z²/2: about 0.96 rows each way", async (t) => {
  t.equal(ADJUSTMENT, (Z95 * Z95) / 4)
  t.ok(Math.abs(ADJUSTMENT - 0.9604) < 1e-4, `${ADJUSTMENT}`)
})

t.test('an adjusted share is pulled toward ½, less the more rows there are', async (t) => {
  t.equal(adjustedShare(0, 0), 0.5, 'no rows: ½')
  t.ok(adjustedShare(5, 5) < 1 && adjustedShare(0, 5) > 0, 'all right (or all wrong) is not 1 (or 0)')
  t.ok(adjustedShare(500, 500) > adjustedShare(5, 5), 'many rows keep almost their own share')
  t.equal(adjustedShare(3, 10), (3 + ADJUSTMENT) / (10 + 2 * ADJUSTMENT))
})
