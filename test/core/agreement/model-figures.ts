import t from 'tap'
import { modelFigures } from '../../../src/core/agreement/model-figures.ts'
import { simpleDesign } from '../../../src/core/agreement/design.ts'
import { gwetAc1 } from '../../../src/core/stats/gwet-ac1.ts'
import { weightedKappa } from '../../../src/core/stats/weighted-kappa.ts'

const LEVELS = ['low', 'medium', 'high']
const rows = [
  ...Array.from({ length: 20 }, () => ({ a: 'low', b: 'low' })),
  ...Array.from({ length: 15 }, () => ({ a: 'medium', b: 'medium' })),
  ...Array.from({ length: 10 }, () => ({ a: 'high', b: 'high' })),
  ...Array.from({ length: 6 }, () => ({ a: 'low', b: 'medium' })),
  ...Array.from({ length: 3 }, () => ({ a: 'high', b: 'low' })),
]

t.test('a scale gets AC1 and both weighted κs, each inside its interval', async (t) => {
  const design = simpleDesign(rows)
  const f = modelFigures(design, { type: 'scale', labels: LEVELS })
  t.equal(f.ac1, gwetAc1(design, LEVELS))
  t.equal(f.kappa_linear, weightedKappa(design, LEVELS, 'linear'))
  t.equal(f.kappa_quadratic, weightedKappa(design, LEVELS, 'quadratic'))
  for (const [value, interval] of [
    [f.ac1, f.ac1_interval],
    [f.kappa_linear, f.kappa_linear_interval],
    [f.kappa_quadratic, f.kappa_quadratic_interval],
  ] as const) {
    t.ok(interval![0] < value! && value! < interval![1])
    t.ok(interval![1] - interval![0] < 0.6, 'a width 54 rows can give')
  }
})

t.test('another kind of question gets AC1 alone; no rows, nothing', async (t) => {
  const f = modelFigures(simpleDesign(rows), { type: 'choice', labels: LEVELS })
  t.ok(f.ac1 !== null)
  t.equal(f.kappa_linear, null)
  t.equal(f.kappa_quadratic_interval, null)
  t.equal(modelFigures([], { type: 'scale', labels: LEVELS }).ac1, null)
})
