import t from 'tap'
import { adjustedAccuracy, neymanSplit, spread, type StratumState } from '../../../src/core/allocation/neyman.ts'

const stratum = (size: number, sampled: number, correct: number, counted = sampled): StratumState => ({ size, sampled, counted, correct })

t.test('a stratum with no verdict is taken at 0.5, the widest spread; verdicts pull it to their share', async (t) => {
  t.equal(adjustedAccuracy(stratum(100, 0, 0)), 0.5)
  t.equal(spread(stratum(100, 0, 0)), 0.5)
  t.equal(adjustedAccuracy(stratum(1000, 400, 380)), 382 / 404, '380 of 400 right, with two pseudo-verdicts each way')
  t.ok(spread(stratum(100, 30, 30)) > 0, 'all right still leaves some spread')
})

t.test('the split of many reviews follows N·S: the unsure stratum of the usual shape gets about a fifth', async (t) => {
  // 1,500 unsure rows at 60% right, 8,500 confident at 97%, as a sample of 100 each has shown.
  const strata = { unsure: stratum(1500, 100, 60), confident: stratum(8500, 100, 97) }
  const wu = 1500 * spread(strata.unsure)
  const wc = 8500 * spread(strata.confident)
  const split = neymanSplit(strata, 10_000 - 8000)
  t.equal(split.unsure + split.confident, 2000, 'every review is placed')
  const share = (100 + split.unsure) / (200 + 2000)
  t.ok(Math.abs(share - wu / (wu + wc)) < 0.001, `unsure share ${share.toFixed(3)} is N·S's ${(wu / (wu + wc)).toFixed(3)}`)
})

t.test('a stratum sampled past its share gets none, and the other takes every review', async (t) => {
  const strata = { unsure: stratum(1000, 300, 150), confident: stratum(1000, 10, 10) }
  t.same(neymanSplit(strata, 20), { unsure: 0, confident: 20 })
})

t.test('no stratum gets more than its unsampled rows; the rest goes to the others, and nothing past every row', async (t) => {
  const strata = { unsure: stratum(10, 2, 1), confident: stratum(10_000, 0, 0) }
  const split = neymanSplit(strata, 5000)
  t.ok(split.unsure <= 8, 'the unsure stratum is capped at its 8 unsampled rows')
  t.equal(split.unsure + split.confident, 5000)
  t.same(neymanSplit({ unsure: stratum(5, 0, 0), confident: stratum(5, 0, 0) }, 100), { unsure: 5, confident: 5 }, 'every row, no more')
  t.same(neymanSplit({ unsure: stratum(0, 0, 0), confident: stratum(50, 0, 0) }, 3), { unsure: 0, confident: 3 }, 'an empty stratum gets none')
  t.same(neymanSplit(strata, 0), { unsure: 0, confident: 0 })
  t.same(neymanSplit(strata, -4), { unsure: 0, confident: 0 }, 'a negative count is none')
})

t.test('the split is in whole reviews that sum to the count asked for', async (t) => {
  for (let extra = 1; extra < 40; extra++) {
    const split = neymanSplit({ unsure: stratum(300, 7, 4), confident: stratum(1700, 13, 12) }, extra)
    t.ok(Number.isInteger(split.unsure) && Number.isInteger(split.confident) && split.unsure + split.confident === extra, `${extra}: ${split.unsure} + ${split.confident}`)
  }
})
