import t from 'tap'
import { betaQuantile, regularizedBeta } from '../../../src/core/stats/beta.ts'

const close = (a: number, b: number, tolerance = 1e-12) => Math.abs(a - b) <= tolerance

t.test('the regularized incomplete beta matches closed forms on both sides of its switch', async (t) => {
  // I_x(1, b) = 1 − (1 − x)^b and I_x(a, 1) = x^a.
  for (const x of [0.01, 0.2, 0.5, 0.8, 0.99]) {
    t.ok(close(regularizedBeta(x, 1, 3), 1 - (1 - x) ** 3), `I_${x}(1, 3)`)
    t.ok(close(regularizedBeta(x, 4, 1), x ** 4), `I_${x}(4, 1)`)
  }
  t.ok(close(regularizedBeta(0.5, 7, 7), 0.5), 'symmetric at ½')
  // scipy.special.betainc(2.5, 40.5, 0.1) and betainc(30, 2, 0.9).
  t.ok(close(regularizedBeta(0.1, 2.5, 40.5), 0.8779019892639643, 1e-10))
  t.ok(close(regularizedBeta(0.9, 30, 2), 0.1695646331008649, 1e-10))
  t.equal(regularizedBeta(0, 2, 3), 0)
  t.equal(regularizedBeta(1, 2, 3), 1)
})

t.test('the beta quantile inverts the incomplete beta', async (t) => {
  for (const [q, a, b] of [
    [0.025, 2, 1],
    [0.975, 3, 8],
    [0.5, 0.5, 0.5],
    [0.001, 1, 1000],
    [0.999, 60, 1.5],
  ] as const) {
    const x = betaQuantile(q, a, b)
    t.ok(close(regularizedBeta(x, a, b), q, 1e-12), `Beta(${a}, ${b}) quantile ${q} is ${x}`)
  }
  t.ok(close(betaQuantile(0.025, 2, 1), Math.sqrt(0.025)), 'Beta(2, 1): x² = q')
  t.equal(betaQuantile(0, 2, 3), 0)
  t.equal(betaQuantile(1, 2, 3), 1)
})
