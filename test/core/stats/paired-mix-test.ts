import t from 'tap'
import { pairedMixPValue } from '../../../src/core/stats/paired-mix-test.ts'
import { seededRandom } from '../../../src/core/stats/seeded-random.ts'
import type { ModelPair } from '../../../src/core/types.ts'

const pair = (old_label: string, new_label: string, rows: number): ModelPair => ({
  question: 'q',
  old_label,
  new_label,
  rows,
})

t.test('no discordant row, or flips that cancel out, is no evidence of a new mix', async (t) => {
  t.equal(pairedMixPValue([pair('yes', 'yes', 40), pair('no', 'no', 60)]), 1)
  t.equal(pairedMixPValue([]), 1)
  t.ok(
    pairedMixPValue([pair('yes', 'no', 10), pair('no', 'yes', 10), pair('no', 'no', 80)]) > 0.9,
    'ten flips each way leave the mix as it was',
  )
})

t.test('flips all one way are evidence, more so the more of them', async (t) => {
  const few = pairedMixPValue([pair('no', 'yes', 4), pair('no', 'no', 96)])
  const many = pairedMixPValue([pair('no', 'yes', 20), pair('no', 'no', 80)])
  // Exact McNemar for 4 of 4 one way: 2·(½)⁴ = 0.125; for 20 of 20, about 2e-6 (the test's floor is 1/2001).
  t.ok(Math.abs(few - 0.125) < 0.03, `four flips one way: p ${few}`)
  t.ok(many < 0.001, `twenty flips one way: p ${many}`)
  t.equal(
    pairedMixPValue([pair('no', 'yes', 20), pair('no', 'no', 80)]),
    many,
    'seeded: the same pairs, the same p value',
  )
  t.ok(
    pairedMixPValue([pair('no', 'yes', 5000), pair('yes', 'no', 4000)]) < 0.001,
    'many rows: a thousand more one way than the other is significant',
  )
})

t.test('under "one mix" the test is significant at 1% about 1% of the time; a real shift is found', async (t) => {
  const random = seededRandom(4)
  let falseAlarms = 0
  let found = 0
  const trials = 400
  const pairs = (m: Map<string, number>) => [...m].map(([k, n]) => pair(k.split(' ')[0], k.split(' ')[1], n))
  const add = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1)
  for (let i = 0; i < trials; i++) {
    // 200 rows, 30% yes. Same mix: 10% of rows get two different labels, either way round at random.
    // Shifted: the new model turns 15% of no into yes.
    const same = new Map<string, number>()
    const shifted = new Map<string, number>()
    for (let r = 0; r < 200; r++) {
      const label = random() < 0.3 ? 'yes' : 'no'
      add(same, random() < 0.1 ? (random() < 0.5 ? 'yes no' : 'no yes') : `${label} ${label}`)
      add(shifted, `${label} ${label === 'no' && random() < 0.15 ? 'yes' : label}`)
    }
    if (pairedMixPValue(pairs(same)) < 0.01) falseAlarms += 1
    if (pairedMixPValue(pairs(shifted)) < 0.01) found += 1
  }
  t.ok(falseAlarms / trials <= 0.025, `the same mix is flagged ${falseAlarms} of ${trials} times`)
  t.ok(found / trials > 0.95, `a 15% shift of no to yes on 200 rows is found ${found} of ${trials} times`)
})
