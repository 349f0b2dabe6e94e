import t from 'tap'
import { designEffect, effectiveCounts, labelDesignEffect, type LabelMix } from '../../../src/core/reports/design-effect.ts'

/** A run's mix from its states, each a label and its rows. */
function mixOf(states: readonly [string, number][]): LabelMix {
  const counts: Record<string, number> = {}
  const squares: Record<string, number> = {}
  for (const [label, m] of states) {
    counts[label] = (counts[label] ?? 0) + m
    squares[label] = (squares[label] ?? 0) + m * m
  }
  return { counts, squares }
}

/** A label's design effect straight from its definition: Σ m² (y − p)² over n p (1 − p). */
function direct(states: readonly [string, number][], label: string): number {
  const n = states.reduce((a, [, m]) => a + m, 0)
  const p = states.filter(([l]) => l === label).reduce((a, [, m]) => a + m, 0) / n
  return states.reduce((a, [l, m]) => a + m * m * ((l === label ? 1 : 0) - p) ** 2, 0) / (n * p * (1 - p))
}

const states = (label: string, count: number, rows: number) => Array.from({ length: count }, (): [string, number] => [label, rows])

t.test('rows that repeat no state weigh 1 each: the effective counts are the counts', async (t) => {
  const mix = mixOf([...states('yes', 3, 1), ...states('no', 7, 1)])
  t.equal(designEffect(mix), 1)
  t.same(effectiveCounts(mix), { yes: 3, no: 7 })
})

t.test('every state repeated ten times has a design effect of exactly 10, and gives back the counts of the states', async (t) => {
  const mix = mixOf([...states('spam', 1, 10), ...states('ham', 9, 10)])
  t.equal(designEffect(mix), 10)
  t.same(effectiveCounts(mix), { spam: 1, ham: 9 })
  const three = mixOf([...states('a', 5, 10), ...states('b', 3, 10), ...states('c', 2, 10)])
  t.equal(designEffect(three), 10, 'three labels too')
})

t.test('a label\'s design effect is Σ m² (y − p)² over n p (1 − p), when the repetition goes with the label', async (t) => {
  // Spam comes in bursts of 10, ham one row a state: the share of spam is far less certain than 100 rows say.
  const bursts = [...states('spam', 1, 10), ...states('spam', 1, 5), ...states('ham', 85, 1)]
  const mix = mixOf(bursts)
  const [n, s] = [100, 100 + 25 + 85]
  t.ok(Math.abs(labelDesignEffect(n, s, 15, 125) - direct(bursts, 'spam')) < 1e-12)
  t.ok(Math.abs(labelDesignEffect(n, s, 85, 85) - direct(bursts, 'ham')) < 1e-12, 'the same for the other label of two')
  t.ok(Math.abs(designEffect(mix) - direct(bursts, 'spam')) < 1e-12, 'with two labels the run\'s effect is the labels\' one')
  t.ok(designEffect(mix) > 7, `${designEffect(mix)}: far above Kish's Σ m² / n = ${s / n}`)
})

t.test('with three labels the run\'s effect is Rao and Scott\'s mean of the labels\', each weighed by 1 − p', async (t) => {
  const run = [...states('a', 2, 6), ...states('a', 8, 1), ...states('b', 30, 1), ...states('c', 5, 2)]
  const mix = mixOf(run)
  const n = 60
  const expected = ((1 - 20 / n) * direct(run, 'a') + (1 - 30 / n) * direct(run, 'b') + (1 - 10 / n) * direct(run, 'c')) / 2
  t.ok(Math.abs(designEffect(mix) - expected) < 1e-12, `${designEffect(mix)} is ${expected}`)
  const effective = effectiveCounts(mix)
  t.ok(Math.abs(effective.a - 20 / expected) < 1e-12 && Math.abs(effective.b - 30 / expected) < 1e-12)
})

t.test('a run of one label takes Kish\'s Σ m² / n; a run without Σ m² or without rows takes 1', async (t) => {
  t.equal(designEffect(mixOf([['yes', 4], ['yes', 2], ['yes', 2]])), 24 / 8)
  t.equal(designEffect({ counts: { yes: 40, no: 60 }, squares: null }), 1, 'recorded before multiplicities were')
  t.same(effectiveCounts({ counts: { yes: 40, no: 60 }, squares: null }), { yes: 40, no: 60 })
  t.equal(designEffect({ counts: {}, squares: {} }), 1)
  t.equal(designEffect({ counts: { yes: 0, no: 5 }, squares: { no: 5 } }), 1, 'a label without rows is no label')
})

t.test('a label missing from Σ m² counts its rows as single states, and the effect is never below 1', async (t) => {
  t.equal(designEffect({ counts: { yes: 4, no: 6 }, squares: { no: 6 } }), 1)
  t.equal(designEffect({ counts: { yes: 4, no: 6 }, squares: { yes: 1, no: 1 } }), 1, 'impossible sums (Σ m² below the rows) do not make rows weigh more')
  t.equal(designEffect({ counts: { yes: 4 }, squares: { yes: 1 } }), 1)
})
