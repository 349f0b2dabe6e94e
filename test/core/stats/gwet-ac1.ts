import t from 'tap'
import { gwetAc1 } from '../../../src/core/stats/gwet-ac1.ts'
import { cohenKappa } from '../../../src/core/stats/kappa.ts'

const pairs = (a: string, b: string) => a.split('').map((x, i) => ({ a: x, b: b[i] }))

t.test('AC1 by hand: a dominant label keeps AC1 near raw agreement where κ collapses', async (t) => {
  // 10 rows, labels y and n. p_a = 8/10; π_y = (0.8 + 0.8)/2 = 0.8, π_n = 0.2;
  // p_e = (0.8·0.2 + 0.2·0.8)/(2 − 1) = 0.32; AC1 = (0.8 − 0.32)/(1 − 0.32) = 0.48/0.68.
  // Cohen's κ on the same rows: p_e = 0.8² + 0.2² = 0.68, κ = 0.12/0.32 = 0.375.
  const rows = pairs('yyyyyyyynn', 'yyyyyyynny')
  t.ok(Math.abs(gwetAc1([{ share: 1, fpc: 1, rows }], ['y', 'n']) - 0.48 / 0.68) < 1e-12)
  const kappa = cohenKappa([{ share: 1, fpc: 1, rows }])
  t.ok('kappa' in kappa && Math.abs(kappa.kappa - 0.375) < 1e-12)
})

t.test("the chance term runs over the question's declared labels, seen or not", async (t) => {
  // Three declared labels, c never given: p_e = (0.8·0.2 + 0.2·0.8 + 0)/(3 − 1) = 0.16; AC1 = 0.64/0.84.
  const rows = pairs('yyyyyyyynn', 'yyyyyyynny')
  t.ok(Math.abs(gwetAc1([{ share: 1, fpc: 1, rows }], ['y', 'n', 'c']) - 0.64 / 0.84) < 1e-12)
})

t.test('strata weigh their rows by share; no rows or one label is undefined', async (t) => {
  const strata = [
    { share: 0.75, fpc: 1, rows: pairs('yy', 'yy') },
    { share: 0.25, fpc: 1, rows: pairs('nn', 'ny') },
  ]
  // p_a = 0.75 + 0.125 = 0.875; π_y = (0.75 + 0.875)/2 = 0.8125; p_e = 2·0.8125·0.1875.
  const pe = 2 * 0.8125 * 0.1875
  t.ok(Math.abs(gwetAc1(strata, ['y', 'n']) - (0.875 - pe) / (1 - pe)) < 1e-12)
  t.ok(Number.isNaN(gwetAc1([], ['y', 'n'])))
  t.ok(Number.isNaN(gwetAc1(strata, ['y'])))
})
