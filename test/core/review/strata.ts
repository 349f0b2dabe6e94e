import t from 'tap'
import {
  bandOf,
  isSplit,
  isStratum,
  listedStrata,
  STRATA,
  stratumCount,
  stratumOf,
} from '../../../src/core/review/strata.ts'

t.test('an answer is unsure below unsure_below and confident from it up', async (t) => {
  t.same(STRATA, ['split', 'unsure', 'confident'], 'in the order of review priority')
  t.equal(stratumOf({ margin: 0.19 }, 0.2), 'unsure')
  t.equal(stratumOf({ margin: 0.2 }, 0.2), 'confident')
  t.equal(stratumOf({ margin: 0 }, 0), 'confident', 'unsure_below 0 leaves the unsure stratum empty')
})

t.test("a jury's answer some juror dissented from is split, whatever its margin", async (t) => {
  t.equal(stratumOf({ margin: 0.9, dissent: 1 }, 0.2), 'split')
  t.equal(stratumOf({ margin: 0.1, split: true }, 0.2), 'split', "a store's cell says it with split")
  t.equal(stratumOf({ margin: 0.9, dissent: 0 }, 0.2), 'confident', 'a unanimous jury goes by its margin')
  t.equal(stratumOf({ margin: 0.1, dissent: 0 }, 0.2), 'unsure')
  t.equal(stratumOf({ margin: 0.1, dissent: null }, 0.2), 'unsure', "one model's answer has no dissent")
  t.equal(stratumOf({ margin: 0.9, split: false }, 0.2), 'confident')
  t.ok(isSplit({ margin: 1, dissent: 2 }))
  t.notOk(isSplit({ margin: 0 }))
})

t.test('each stratum reads as a band that the three split without overlap', async (t) => {
  t.same(bandOf('split', 0.2), { from: -Infinity, below: Infinity, split: true })
  t.same(bandOf('unsure', 0.2), { from: -Infinity, below: 0.2, split: false })
  t.same(bandOf('confident', 0.2), { from: 0.2, below: Infinity, split: false })
  t.ok(isStratum('unsure') && isStratum('confident') && isStratum('split'))
  t.notOk(isStratum('middle') || isStratum(undefined))
})

t.test('texts name the split stratum in plain words, and only when it holds answers', async (t) => {
  t.equal(stratumCount('split', 3), '3 where jurors disagree')
  t.equal(stratumCount('unsure', 2), '2 unsure')
  const strata = [
    { stratum: 'split' as const, size: 0 },
    { stratum: 'unsure' as const, size: 0 },
    { stratum: 'confident' as const, size: 5 },
  ]
  t.same(
    listedStrata(strata).map((s) => s.stratum),
    ['unsure', 'confident'],
    'an empty split stratum is left out, an empty unsure one is not',
  )
  t.same(listedStrata([{ stratum: 'split', size: 1 }]), [{ stratum: 'split', size: 1 }])
})
