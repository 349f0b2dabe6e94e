import t from 'tap'
import { adjustedAccuracy, neymanSplit, spread, type StratumState } from '../../../src/core/allocation/neyman.ts'

const stratum = (size: number, sampled: number, correct: number, counted = sampled): StratumState => ({
  size,
  sampled,
  counted,
  correct,
})

t.test('a stratum with no verdict is taken at 0.5, the widest spread; verdicts pull it to their share', async (t) => {
  t.equal(adjustedAccuracy(stratum(100, 0, 0)), 0.5)
  t.equal(spread(stratum(100, 0, 0)), 0.5)
  t.equal(adjustedAccuracy(stratum(1000, 400, 380)), 382 / 404, '380 of 400 right, with two pseudo-verdicts each way')
  t.ok(spread(stratum(100, 30, 30)) > 0, 'all right still leaves some spread')
})

t.test('the split of many reviews follows N·S: the unsure stratum of the usual shape gets about a fifth', async (t) => {
  // 1,500 unsure rows at 60% right, 8,500 confident at 97%, as a sample of 100 each has shown.
  const strata = { split: stratum(0, 0, 0), unsure: stratum(1500, 100, 60), confident: stratum(8500, 100, 97) }
  const wu = 1500 * spread(strata.unsure)
  const wc = 8500 * spread(strata.confident)
  const split = neymanSplit(strata, 10_000 - 8000)
  t.equal(split.unsure + split.confident, 2000, 'every review is placed')
  const share = (100 + split.unsure) / (200 + 2000)
  t.ok(
    Math.abs(share - wu / (wu + wc)) < 0.001,
    `unsure share ${share.toFixed(3)} is N·S's ${(wu / (wu + wc)).toFixed(3)}`,
  )
})

t.test('the split is by stratum name, each stratum weighed at its adjusted accuracy', async (t) => {
  t.same(
    neymanSplit({ split: stratum(0, 0, 0), unsure: stratum(1000, 300, 150), confident: stratum(1000, 10, 10) }, 20),
    {
      split: 0,
      unsure: 0,
      confident: 20,
    },
  )
  t.same(neymanSplit({ split: stratum(0, 0, 0), unsure: stratum(0, 0, 0), confident: stratum(50, 0, 0) }, 3), {
    split: 0,
    unsure: 0,
    confident: 3,
  })
  t.same(
    neymanSplit({ split: stratum(0, 0, 0), unsure: stratum(1000, 0, 0), confident: stratum(1000, 0, 0) }, 10),
    { split: 0, unsure: 5, confident: 5 },
    'no verdicts: the same spread',
  )
  // Equal sizes and samples: the stratum at half right outweighs the one all right.
  const split = neymanSplit(
    { split: stratum(0, 0, 0), unsure: stratum(1000, 20, 10), confident: stratum(1000, 20, 20) },
    100,
  )
  t.ok(
    split.unsure > split.confident && split.unsure + split.confident === 100,
    `${split.unsure} against ${split.confident}`,
  )
})
