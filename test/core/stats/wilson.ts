import t from 'tap'
import { wilsonInterval, Z95 } from '../../../src/core/stats/wilson.ts'

t.test('the Wilson interval matches values computed by hand', async (t) => {
  // 8 of 10: p = 0.8, z² = 3.8415; centre 0.99207 / 1.38415 = 0.71674, half 1.41601 × √0.025604 = 0.22658.
  const [low, high] = wilsonInterval(8, 10)!
  t.ok(Math.abs(low - 0.49016) < 1e-4, `low ${low}`)
  t.ok(Math.abs(high - 0.94332) < 1e-4, `high ${high}`)
  // 10 of 10: the bounds are 1 / (1 + z²/n) = 0.72247 and exactly 1.
  t.same(
    wilsonInterval(10, 10)!.map((x) => Math.round(x * 1e5) / 1e5),
    [0.72247, 1],
  )
  t.equal(wilsonInterval(0, 3)![0], 0)
  t.equal(wilsonInterval(0, 0), null)
})

t.test('Z95 leaves 2.5% of the normal on each side, and a wider z widens the interval', async (t) => {
  // ∫₀^Z95 φ by Simpson's rule on 2,000 steps: 0.475, so that 5% of the normal lies beyond ±Z95.
  const phi = (x: number) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)
  const steps = 2000
  const h = Z95 / steps
  let sum = phi(0) + phi(Z95)
  for (let i = 1; i < steps; i++) sum += (i % 2 === 1 ? 4 : 2) * phi(i * h)
  t.ok(Math.abs((sum * h) / 3 - 0.475) < 1e-12, `${(sum * h) / 3}`)
  const narrow = wilsonInterval(8, 10)!
  const wide = wilsonInterval(8, 10, 2.575829303549)!
  t.ok(wide[0] < narrow[0] && narrow[1] < wide[1], `99%: ${wide} around 95%: ${narrow}`)
})
