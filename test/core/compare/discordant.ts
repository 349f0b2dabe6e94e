import t from 'tap'
import { discordantEstimate, noneDiffer } from '../../../src/core/compare/discordant.ts'
import { clopperPearson } from '../../../src/core/stats/clopper-pearson.ts'

const table = (candidate: number, live: number, both = 0, neither = 0) => ({ both, candidate, live, neither })

t.test('the interval is the range of δ·(2π − 1) over the exact intervals of δ and π', async (t) => {
  const e = discordantEstimate(table(45, 15), 100, 1000)
  const [pl, pu] = clopperPearson(45, 60)!
  const [dl, du] = clopperPearson(100, 1000)!
  t.ok(2 * pl - 1 > 0, 'π leaves ½')
  t.same(
    e.interval,
    [(2 * pl - 1) * dl, (2 * pu - 1) * du],
    'both ends positive: the lower end at δ_L, the upper at δ_U',
  )
  t.equal(e.difference, (0.1 * 30) / 60)
  t.equal(e.rows, 60)
  t.equal(e.rows_difference, null)
  const worse = discordantEstimate(table(15, 45), 100, 1000)
  const mirrored = [(1 - 2 * pu) * du, (1 - 2 * pl) * dl]
  t.ok(
    worse.interval.every((x, i) => Math.abs(x - mirrored[i]) < 1e-12),
    'both ends negative: mirrored',
  )
  const even = discordantEstimate(table(5, 5), 100, 1000)
  t.ok(
    even.interval[0] < 0 && even.interval[1] > 0 && Math.abs(even.interval[0] + even.interval[1]) < 1e-12,
    'holding 0: both ends at δ_U',
  )
  t.equal(even.p_value, 1)
})

t.test('a census of the discordant rows gives the difference on the rows exactly', async (t) => {
  const e = discordantEstimate(table(7, 3), 10, 200)
  t.equal(e.rows_difference, 4 / 200)
  t.equal(e.difference, 4 / 200)
})

t.test('no compared row differs: 0 on the rows, ±δ_U in traffic', async (t) => {
  const e = noneDiffer(100)
  t.same(e, {
    rows: 0,
    difference: 0,
    interval: [-clopperPearson(0, 100)![1], clopperPearson(0, 100)![1]],
    p_value: 1,
    rows_difference: 0,
  })
})
