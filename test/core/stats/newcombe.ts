import t from 'tap'
import { newcombeInterval, type PairedCounts } from '../../../src/core/stats/newcombe.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'

t.test("Newcombe's interval holds the point, matches Wald for large samples, and covers 95% of the time", async (t) => {
  const [low, high] = newcombeInterval({ both: 12, firstOnly: 9, secondOnly: 2, neither: 21 })!
  t.ok(low < 7 / 44 && 7 / 44 < high)
  // Large n: close to Wald's (b − c)/n ± z·√(b + c − (b − c)²/n)/n.
  const big = newcombeInterval({ both: 6000, firstOnly: 2000, secondOnly: 1000, neither: 1000 })!
  const se = Math.sqrt(3000 - 1000 ** 2 / 10_000) / 10_000
  t.ok(Math.abs(big[0] - (0.1 - 1.96 * se)) < 0.002 && Math.abs(big[1] - (0.1 + 1.96 * se)) < 0.002, `${big}`)
  // 2,000 tables of 50 pairs: first-only right 20%, second-only right 10%, both 50%.
  const random = seededRandom(3)
  let covered = 0
  for (let i = 0; i < 2000; i++) {
    const t2 = { both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }
    for (let r = 0; r < 50; r++) {
      const u = random()
      if (u < 0.5) t2.both += 1
      else if (u < 0.7) t2.firstOnly += 1
      else if (u < 0.8) t2.secondOnly += 1
      else t2.neither += 1
    }
    const [l, h] = newcombeInterval(t2)!
    if (l <= 0.1 && 0.1 <= h) covered += 1
  }
  t.ok(covered / 2000 >= 0.93, `covers the true 0.1 in ${covered} of 2000`)
})

t.test('no rows, no interval; all pairs alike, an interval around 0 that is not a point', async (t) => {
  t.equal(newcombeInterval({ both: 0, firstOnly: 0, secondOnly: 0, neither: 0 }), null)
  const [low, high] = newcombeInterval({ both: 30, firstOnly: 0, secondOnly: 0, neither: 10 })!
  t.ok(low < 0 && high > 0)
})

t.test('swapping the sides mirrors the interval, and it stays within −1..1', async (t) => {
  const table: PairedCounts = { both: 3, firstOnly: 1, secondOnly: 14, neither: 2 }
  const [low, high] = newcombeInterval(table)!
  const [l2, h2] = newcombeInterval({ ...table, firstOnly: table.secondOnly, secondOnly: table.firstOnly })!
  t.ok(Math.abs(low + h2) < 1e-12 && Math.abs(high + l2) < 1e-12, `${[low, high]} mirrors ${[l2, h2]}`)
  const extreme = newcombeInterval({ both: 0, firstOnly: 0, secondOnly: 5, neither: 0 })!
  t.ok(extreme[0] >= -1 && extreme[1] <= 1, `${extreme}`)
})
