import t from 'tap'
import { holdAllowance } from '../../../src/core/review/hold-bound.ts'

t.test('a page holds up to its cards, and holds together leave a page of the queue unheld', async (t) => {
  t.equal(holdAllowance(25, 200, 0), 25, 'a long queue: the whole page')
  t.equal(holdAllowance(10, 200, 0), 10, 'never more than the page shows')
  t.equal(holdAllowance(25, 200, 160), 15, 'up to 25 of the 200 left unheld')
  t.equal(holdAllowance(25, 200, 175), 0, 'none once others hold all but a page')
  t.equal(holdAllowance(25, 200, 190), 0, 'never below none')
  t.equal(holdAllowance(25, 5, 0), 2, 'a short queue keeps half of its rows unheld: 3 of 5')
  t.equal(holdAllowance(25, 0, 0), 0, 'nothing waits')
})
