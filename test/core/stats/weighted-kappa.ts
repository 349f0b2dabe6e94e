import t from 'tap'
import { weightedKappa } from '../../../src/core/stats/weighted-kappa.ts'

const LEVELS = ['low', 'medium', 'high']
// A fixture with weights: each row stands for `w` rows, as scikit-learn's sample_weight.
const A = ['low', 'low', 'medium', 'medium', 'high', 'high', 'medium', 'low', 'high', 'medium']
const B = ['low', 'medium', 'medium', 'high', 'high', 'medium', 'medium', 'low', 'low', 'medium']
const W = [1, 2, 1, 0.5, 3, 1, 2, 1, 0.5, 1.5]

/** Each weighted row as a stratum of one row whose share is its weight over the total. */
const strata = () => {
  const total = W.reduce((a, b) => a + b, 0)
  return A.map((a, i) => ({ share: W[i] / total, fpc: 1, rows: [{ a, b: B[i] }] }))
}

t.test('weighted κ equals scikit-learn cohen_kappa_score(weights=…, sample_weight=…)', async (t) => {
  // Reference values: scikit-learn's documented formula (sklearn/metrics/_classification.py,
  // cohen_kappa_score: confusion = confusion_matrix(y1, y2, labels, sample_weight); expected =
  // outer(sum0, sum1) / sum(sum0); w_mat = |i − j| or (i − j)²; κ = 1 − Σ w·confusion / Σ w·expected),
  // computed with numpy 1.x on this fixture.
  t.ok(Math.abs(weightedKappa(strata(), LEVELS, 'linear') - 0.5788561525129983) < 1e-12)
  t.ok(Math.abs(weightedKappa(strata(), LEVELS, 'quadratic') - 0.6187419768934531) < 1e-12)
})

t.test('one stratum of equal rows is the unweighted κ_w; labels outside the levels are left out', async (t) => {
  const rows = A.map((a, i) => ({ a, b: B[i] }))
  const plain = weightedKappa([{ share: 1, fpc: 1, rows }], LEVELS, 'quadratic')
  const withStray = weightedKappa([{ share: 1, fpc: 1, rows: [...rows, { a: 'odd', b: 'low' }] }], LEVELS, 'quadratic')
  t.ok(Math.abs(plain - withStray) < 1e-12)
  t.ok(Number.isNaN(weightedKappa([], LEVELS, 'linear')), 'no rows')
  t.ok(
    Number.isNaN(weightedKappa([{ share: 1, fpc: 1, rows: [{ a: 'low', b: 'low' }] }], LEVELS, 'linear')),
    'one level on both sides: no chance disagreement',
  )
  t.equal(
    weightedKappa(
      [
        {
          share: 1,
          fpc: 1,
          rows: [
            { a: 'low', b: 'low' },
            { a: 'high', b: 'high' },
          ],
        },
      ],
      LEVELS,
      'linear',
    ),
    1,
  )
})
