import t from 'tap'
import { chiSquare, chiSquareSurvival } from '../../../src/core/stats/chi-square.ts'
import { mixPValue, PERMUTATIONS } from '../../../src/core/stats/mix-test.ts'

const close = (a: number, b: number, tolerance = 1e-9) => Math.abs(a - b) <= tolerance

t.test("Pearson's statistic of a 2 × K table, and its p value for large counts", async (t) => {
  t.ok(close(chiSquare([10, 90], [25, 75]), 7.792207792207792))
  t.ok(close(mixPValue({ yes: 10, no: 90 }, { yes: 25, no: 75 }), chiSquareSurvival(7.792207792207792, 1)))
  t.equal(mixPValue({ yes: 5, no: 5 }, { yes: 5, no: 5 }), 1, 'the same mix')
  t.equal(mixPValue({ yes: 5 }, { yes: 7 }), 1, 'one label only')
  t.equal(mixPValue({}, { yes: 1, no: 1 }), 1, 'a run without rows')
})

t.test("small counts are permuted, the same way every time, and agree with Fisher's exact test", async (t) => {
  const p = mixPValue({ yes: 1, no: 9 }, { yes: 5, no: 5 })
  t.equal(mixPValue({ no: 9, yes: 1 }, { no: 5, yes: 5 }), p, 'the same counts, the same p value')
  // Fisher's two-sided exact p of this table is 0.141; the permutation test's is within its noise.
  t.ok(Math.abs(p - 0.141) < 0.03, `${p} near Fisher's 0.141`)
  t.ok(p > 1 / (PERMUTATIONS + 1))
})

t.test('effective counts that are not whole are rounded to rows before they are permuted', async (t) => {
  t.equal(mixPValue({ yes: 1.2, no: 8.9 }, { yes: 3.6, no: 6.4 }), mixPValue({ yes: 1, no: 9 }, { yes: 4, no: 6 }))
  t.equal(mixPValue({ yes: 0.3, no: 0.2 }, { yes: 3, no: 3 }), 1, 'a run worth less than half a row is no evidence')
  const large = mixPValue({ yes: 10.5, no: 89.5 }, { yes: 25.5, no: 74.5 })
  t.ok(
    close(large, chiSquareSurvival(chiSquare([10.5, 89.5], [25.5, 74.5]), 1)),
    'large ones go to the chi-square test as they are',
  )
})

t.test(
  'a spread a² divides the statistic and the degrees of freedom by 1 + a², and the rows permuted too',
  async (t) => {
    const [a, b] = [
      { x: 30, y: 50, z: 20 },
      { x: 45, y: 35, z: 20 },
    ]
    const x2 = chiSquare([30, 50, 20], [45, 35, 20])
    t.ok(close(mixPValue(a, b, 0.5), chiSquareSurvival(x2 / 1.5, 2 / 1.5), 1e-15))
    t.ok(mixPValue(a, b, 0.5) > mixPValue(a, b))
    t.equal(
      mixPValue({ x: 2, y: 8 }, { x: 6, y: 4 }, 1),
      mixPValue({ x: 1, y: 4 }, { x: 3, y: 2 }),
      'small counts: half the rows each',
    )
  },
)

t.test('a permuted p value stays what its seeded draws gave when it was first taken', async (t) => {
  // A change in the draws, their order or the shuffle would move these figures, which earlier reports hold.
  t.equal(mixPValue({ yes: 3, no: 9 }, { yes: 8, no: 4 }), 0.04052412828650499)
  t.equal(mixPValue({ a: 1, b: 4, c: 2 }, { a: 5, b: 1, c: 3 }), 0.12893553223388307)
  t.equal(mixPValue({ yes: 6.4, no: 13.2 }, { yes: 12, no: 8.6 }, 0.3), 0.11075811148244108)
})
