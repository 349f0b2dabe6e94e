import t from 'tap'
import { routeLines } from '../../src/cli/route-text.ts'

t.test('a run\'s routes read as a line per question with rows and shares; unrouted rows read "no route"', async (t) => {
  t.same(routeLines({ is_spam: { block: 24, review: 100, deliver: 3401, '': 0 } }, 3525), [
    '  routes of is_spam: block 24 (0.7%), review 100 (2.8%), deliver 3,401 (96.5%), no route 0 (0.0%)',
  ])
  t.same(routeLines({ q: { a: 0 } }, 0), ['  routes of q: a 0'], 'no share of no rows')
  t.same(routeLines(undefined, 5), [], 'a run without routes')
  t.same(routeLines({}, 5), [])
})
