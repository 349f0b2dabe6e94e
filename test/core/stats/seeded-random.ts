import t from 'tap'
import { partialShuffle, seededRandom } from '../../../src/core/stats/seeded-random.ts'

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

t.test('the draws are mulberry32 of the seed, as they were first taken', async (t) => {
  const random = seededRandom(42)
  t.same(
    Array.from({ length: 3 }, () => random()),
    [0.6011037519201636, 0.44829055899754167, 0.8524657934904099],
  )
})

t.test('partialShuffle draws what seededRandom draws, and goes on where the last shuffle stopped', async (t) => {
  const values = [0, 0, 0, 1, 1, 2, 2, 2, 2, 1]
  const random = seededRandom(7)
  const expected = [...values]
  const pool = Int32Array.from(values)
  let state = 7
  for (const n of [4, 10, 0, 6]) {
    const want = [0, 0, 0]
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(random() * (expected.length - i))
      const picked = expected[j]
      expected[j] = expected[i]
      expected[i] = picked
      want[expected[i]] += 1
    }
    const counts = [0, 0, 0]
    state = partialShuffle(state, pool, n, counts)
    t.same([...pool], expected, `the pool after drawing ${n}`)
    t.same(counts, want)
  }
})
