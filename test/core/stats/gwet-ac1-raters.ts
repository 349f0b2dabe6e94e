import t from 'tap'
import { gwetAc1Raters } from '../../../src/core/stats/gwet-ac1-raters.ts'

t.test("multi-rater AC1 with missing ratings, by hand, as irrCAC's gwet.ac1.raw computes it", async (t) => {
  // Units (ratings given): [a,a,a] [a,a,b] [b,b] [c,a] [a]; Q = 3 declared labels.
  // p_a over units with ≥ 2 ratings: (6/6 + 2/6 + 2/2 + 0)/4 = 7/12.
  // π over the 5 rated units: a = (1 + 2/3 + 1/2 + 1)/5 = 19/30, b = (1/3 + 1)/5 = 8/30, c = (1/2)/5 = 3/30.
  // p_e = (19·11 + 8·22 + 3·27)/900/(3 − 1) = 466/1800; AC1 = (1050 − 466)/(1800 − 466) = 584/1334.
  const units = [['a', 'a', 'a'], ['a', 'a', 'b'], ['b', 'b'], ['c', 'a'], ['a']]
  t.ok(Math.abs(gwetAc1Raters(units, ['a', 'b', 'c']) - 584 / 1334) < 1e-12)
})

t.test('two raters on every unit is the two-rater AC1; nothing paired is undefined', async (t) => {
  const units = 'yyyyyyyynn'.split('').map((a, i) => [a, 'yyyyyyynny'[i]])
  t.ok(Math.abs(gwetAc1Raters(units, ['y', 'n']) - 0.48 / 0.68) < 1e-12)
  t.ok(Number.isNaN(gwetAc1Raters([['y'], ['n']], ['y', 'n'])))
  t.ok(Number.isNaN(gwetAc1Raters(units, ['y'])))
  t.ok(Math.abs(gwetAc1Raters([...units, ['odd', 'y']], ['y', 'n']) - 0.48 / 0.68) < 0.1, 'a stray label is left out')
})
