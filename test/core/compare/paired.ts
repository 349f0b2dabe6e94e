import t from 'tap'
import { mcnemarExact, pairedDifference } from '../../../src/core/compare/paired.ts'
import { seededRandom } from '../../../src/core/review/seeded-random.ts'

t.test('McNemar\'s exact p value is twice the binomial tail of the rarer discordant count', async (t) => {
  t.equal(mcnemarExact(0, 0), 1)
  t.equal(mcnemarExact(5, 5), 1, 'balanced: capped at 1')
  t.ok(Math.abs(mcnemarExact(0, 6) - 2 / 64) < 1e-12, '2·(½)⁶')
  t.ok(Math.abs(mcnemarExact(1, 9) - 2 * 11 / 1024) < 1e-12, '2·(1 + 10)/2¹⁰')
  t.ok(mcnemarExact(1000, 1200) < 1e-4 && mcnemarExact(1000, 1200) > 0, 'large counts, summed in logs')
})

t.test('Newcombe\'s interval holds the point, matches Wald for large samples, and covers 95% of the time', async (t) => {
  const d = pairedDifference({ both: 12, candidate: 9, live: 2, neither: 21 })!
  t.ok(Math.abs(d.difference - 7 / 44) < 1e-12)
  t.ok(d.interval[0] < d.difference && d.difference < d.interval[1])
  t.ok(Math.abs(d.p_value - mcnemarExact(9, 2)) < 1e-12)
  // Large n: close to Wald's (b − c)/n ± z·√(b + c − (b − c)²/n)/n.
  const big = pairedDifference({ both: 6000, candidate: 2000, live: 1000, neither: 1000 })!
  const se = Math.sqrt(3000 - 1000 ** 2 / 10_000) / 10_000
  t.ok(Math.abs(big.interval[0] - (0.1 - 1.96 * se)) < 0.002 && Math.abs(big.interval[1] - (0.1 + 1.96 * se)) < 0.002, `${big.interval}`)
  // 2,000 tables of 50 pairs: candidate-only right 20%, live-only right 10%, both 50%.
  const random = seededRandom(3)
  let covered = 0
  for (let i = 0; i < 2000; i++) {
    const t2 = { both: 0, candidate: 0, live: 0, neither: 0 }
    for (let r = 0; r < 50; r++) {
      const u = random()
      if (u < 0.5) t2.both += 1
      else if (u < 0.7) t2.candidate += 1
      else if (u < 0.8) t2.live += 1
      else t2.neither += 1
    }
    const x = pairedDifference(t2)!
    if (x.interval[0] <= 0.1 && 0.1 <= x.interval[1]) covered += 1
  }
  t.ok(covered / 2000 >= 0.93, `covers the true 0.1 in ${covered} of 2000`)
})

t.test('no rows, no figure; all pairs alike, an interval around 0 that is not a point', async (t) => {
  t.equal(pairedDifference({ both: 0, candidate: 0, live: 0, neither: 0 }), null)
  const same = pairedDifference({ both: 30, candidate: 0, live: 0, neither: 10 })!
  t.equal(same.difference, 0)
  t.ok(same.interval[0] < 0 && same.interval[1] > 0)
  t.equal(same.p_value, 1)
})
