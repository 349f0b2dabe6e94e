import t from 'tap'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'

t.test('the same seed gives the same numbers, spread over 0 to 1', async (t) => {
  const a = seededRandom(42)
  const b = seededRandom(42)
  const draws = Array.from({ length: 10000 }, () => a())
  t.same(
    Array.from({ length: 10000 }, () => b()),
    draws,
  )
  t.ok(draws.every((x) => x >= 0 && x < 1))
  const mean = draws.reduce((s, x) => s + x, 0) / draws.length
  t.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`)
  t.notSame(Array.from({ length: 5 }, seededRandom(43)), draws.slice(0, 5))
})
