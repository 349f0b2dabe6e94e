import t from 'tap'
import { clopperPearson } from '../../../src/core/stats/clopper-pearson.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'

const close = (a: number, b: number, tolerance = 1e-10) => Math.abs(a - b) <= tolerance

t.test('the exact interval matches the beta quantiles of scipy', async (t) => {
  // scipy.stats.beta.ppf(0.025, x, n - x + 1) and beta.ppf(0.975, x + 1, n - x) (scipy 1.17), as
  // statsmodels' proportion_confint(x, n, method='beta') computes them.
  const table: readonly [number, number, number, number][] = [
    [5, 10, 0.18708602844739855, 0.8129139715526015],
    [2, 2, 0.15811388300841897, 1],
    [0, 10, 0, 0.3084971078187607],
    [1, 1000, 2.531748749129404e-5, 0.005558924279826672],
    [45, 60, 0.6214036445204557, 0.8528139262009964],
  ]
  for (const [x, n, lower, upper] of table) {
    const [l, u] = clopperPearson(x, n)!
    t.ok(close(l, lower) && close(u, upper), `${x} of ${n}: [${l}, ${u}]`)
  }
  t.same(clopperPearson(3, 0), null, 'no trials, no interval')
})

t.test('a fractional count lies between the integer counts around it, and the level widens the interval', async (t) => {
  const [l2, u2] = clopperPearson(2, 10)!
  const [lh, uh] = clopperPearson(2.5, 10)!
  const [l3, u3] = clopperPearson(3, 10)!
  t.ok(l2 < lh && lh < l3 && u2 < uh && uh < u3)
  const [l99, u99] = clopperPearson(2, 10, 0.99)!
  t.ok(l99 < l2 && u99 > u2)
})

t.test('each end misses the truth at most 2.5% of the time, at every n (simulation)', async (t) => {
  const random = seededRandom(11)
  for (const n of [1, 2, 3, 5, 10, 30]) {
    for (const p of [0.05, 0.3, 0.5, 0.9]) {
      let [below, above] = [0, 0]
      const reps = 2000
      for (let r = 0; r < reps; r++) {
        let x = 0
        for (let i = 0; i < n; i++) if (random() < p) x += 1
        const [l, u] = clopperPearson(x, n)!
        if (p < l) below += 1
        if (p > u) above += 1
      }
      // 2.5% plus three standard errors of a 2,000-draw share.
      t.ok(
        below / reps <= 0.025 + 0.011 && above / reps <= 0.025 + 0.011,
        `n ${n}, p ${p}: misses ${below} low, ${above} high of ${reps}`,
      )
    }
  }
})
