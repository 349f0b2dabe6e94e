import t from 'tap'
import { bandOf, isStratum, STRATA, stratumOf } from '../../../src/core/review/strata.ts'

t.test('an answer is unsure below unsure_below and confident from it up', async (t) => {
  t.same(STRATA, ['unsure', 'confident'])
  t.equal(stratumOf(0.19, 0.2), 'unsure')
  t.equal(stratumOf(0.2, 0.2), 'confident')
  t.equal(stratumOf(0, 0), 'confident', 'unsure_below 0 leaves the unsure stratum empty')
})

t.test('each stratum reads as a band of margins that the two bands split without overlap', async (t) => {
  t.same(bandOf('unsure', 0.2), { from: -Infinity, below: 0.2 })
  t.same(bandOf('confident', 0.2), { from: 0.2, below: Infinity })
  t.ok(isStratum('unsure') && isStratum('confident'))
  t.notOk(isStratum('middle') || isStratum(undefined))
})
