import t from 'tap'
import type { StratumState } from '../../../src/core/allocation/neyman.ts'
import { projectedHalfWidth, reviewsNeeded } from '../../../src/core/allocation/reviews-needed.ts'

const stratum = (size: number, sampled: number, correct: number, counted = sampled): StratumState => ({
  size,
  sampled,
  counted,
  correct,
})
const none = { split: 0, unsure: 0, confident: 0 }

t.test('with the interval already narrow enough, no review is needed', async (t) => {
  const strata = { split: stratum(0, 0, 0), unsure: stratum(100, 100, 60), confident: stratum(900, 900, 870) }
  t.equal(projectedHalfWidth(strata, none), 0, 'every row reviewed: the interval is the point')
  t.same(reviewsNeeded(strata, 0.01), none)
})

t.test('the reviews needed are the fewest that reach the target, split by Neyman allocation', async (t) => {
  const strata = { split: stratum(0, 0, 0), unsure: stratum(1500, 20, 12), confident: stratum(8500, 30, 29) }
  const needed = reviewsNeeded(strata, 0.03)
  const total = needed.unsure + needed.confident
  t.ok(
    projectedHalfWidth(strata, needed) <= 0.03,
    `after ${needed.unsure} + ${needed.confident} the half-width is within 0.03`,
  )
  t.ok(total > 100, 'a ±3-point interval takes hundreds of reviews')
  t.ok(needed.unsure > 0 && needed.confident > 0, 'both strata get some')
  const fewer = reviewsNeeded(strata, 0.05)
  t.ok(fewer.unsure + fewer.confident < total, 'a wider target takes fewer reviews')
})

t.test('one review fewer would not reach the target', async (t) => {
  const strata = { split: stratum(0, 0, 0), unsure: stratum(400, 10, 6), confident: stratum(1600, 10, 10) }
  const needed = reviewsNeeded(strata, 0.05)
  const total = needed.unsure + needed.confident
  const { neymanSplit } = await import('../../../src/core/allocation/neyman.ts')
  t.ok(projectedHalfWidth(strata, neymanSplit(strata, total - 1)) > 0.05)
})

t.test(
  'a stratum with no verdict yet is projected at 0.5, and a target past every row asks for every row',
  async (t) => {
    const strata = { split: stratum(0, 0, 0), unsure: stratum(50, 0, 0), confident: stratum(50, 0, 0) }
    const needed = reviewsNeeded(strata, 0.0001)
    t.same(needed, { split: 0, unsure: 50, confident: 50 }, 'only a census reaches a tiny target')
    t.ok(Number.isFinite(projectedHalfWidth(strata, { split: 0, unsure: 10, confident: 10 })))
    t.equal(projectedHalfWidth(strata, none), Infinity, 'nothing to go on: no interval')
  },
)

t.test('rows a reviewer cannot label shrink what each review adds', async (t) => {
  const clear = { split: stratum(0, 0, 0), unsure: stratum(1000, 20, 10), confident: stratum(1000, 20, 18) }
  const murky = { split: stratum(0, 0, 0), unsure: stratum(1000, 20, 5, 10), confident: stratum(1000, 20, 9, 10) }
  const a = reviewsNeeded(clear, 0.05)
  const b = reviewsNeeded(murky, 0.05)
  t.ok(b.unsure + b.confident > a.unsure + a.confident, 'half the rows unlabelled: more reviews')
})

t.test("a jury's split stratum takes its Neyman share of the reviews, and the texts name it only then", async (t) => {
  const { neededParts, neededTotal, targetFigures } = await import('../../../src/core/allocation/reviews-needed.ts')
  const strata = { split: stratum(300, 10, 5), unsure: stratum(1500, 20, 12), confident: stratum(8200, 30, 29) }
  const needed = reviewsNeeded(strata, 0.03)
  t.ok(needed.split > 0 && needed.unsure > 0 && needed.confident > 0, 'every stratum gets some')
  t.ok(projectedHalfWidth(strata, needed) <= 0.03)
  t.equal(neededTotal(needed), needed.split + needed.unsure + needed.confident)
  t.same(
    neededParts(needed).map((p) => p.stratum),
    ['split', 'unsure', 'confident'],
  )
  t.same(
    neededParts({ split: 0, unsure: 2, confident: 1 }),
    [
      { stratum: 'unsure', reviews: 2 },
      { stratum: 'confident', reviews: 1 },
    ],
    "one model's: no split stratum named",
  )
  t.same(targetFigures({ split: stratum(0, 0, 0), unsure: stratum(0, 0, 0), confident: stratum(0, 0, 0) }, 0.05), {
    accuracy_target: 0.05,
    reviews_needed: null,
  })
  t.not(
    targetFigures({ ...strata, unsure: stratum(0, 0, 0), confident: stratum(0, 0, 0) }, 0.05).reviews_needed,
    null,
    'split answers alone are answers',
  )
})
