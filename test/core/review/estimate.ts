import t from 'tap'
import { cellOf, estimateAccuracy, METHOD } from '../../../src/core/review/estimate.ts'
import type { QuestionSample } from '../../../src/core/review/sample-design.ts'
import type { SampledRow, StratumSample } from '../../../src/core/review/stratum-sample.ts'
import { spec } from '../../helpers/specs.ts'

const isSpam = spec().questions[0]
const naive = { accuracy: 0.6, interval: [0.4, 0.8] as const, counted: 20 }

function stratum(
  s: StratumSample['stratum'],
  size: number,
  right: number,
  wrong: number,
  more: Partial<StratumSample> = {},
): StratumSample {
  const row = (correct: boolean, i: number): SampledRow => ({
    stateHash: `${s}${i}`,
    stratum: s,
    label: 'yes',
    p: 0.9,
    margin: 0.8,
    truth: [correct ? 'yes' : 'no'],
    correct,
  })
  const rows = [
    ...Array.from({ length: right }, (_, i) => row(true, i)),
    ...Array.from({ length: wrong }, (_, i) => row(false, right + i)),
  ]
  return {
    stratum: s,
    size,
    sampled: rows.length,
    rows,
    needs_context: 0,
    ambiguous: 0,
    outside: 0,
    next: null,
    needed: 0,
    ...more,
  }
}
const audit = (unsure: StratumSample, confident: StratumSample): QuestionSample => ({
  question: isSpam,
  strata: { split: stratum('split', 0, 0, 0), unsure, confident },
})

t.test('the estimate weighs each stratum by its answers, beside the pooled figure', async (t) => {
  const e = estimateAccuracy(audit(stratum('unsure', 200, 12, 8), stratum('confident', 800, 29, 1)), naive)
  t.ok(Math.abs(e.point! - (0.2 * 0.6 + (0.8 * 29) / 30)) < 1e-12)
  t.ok(e.interval![0] < e.point! && e.point! < e.interval![1])
  t.match(e, { estimable: true, method: METHOD, needed: 0, naive })
  t.match(e.strata, [
    { stratum: 'split', size: 0, weight: 0, counted: 0, accuracy: null },
    { stratum: 'unsure', size: 200, weight: 0.2, sampled: 20, counted: 20, correct: 12, accuracy: 0.6 },
    { stratum: 'confident', size: 800, weight: 0.8, sampled: 30, counted: 30, correct: 29 },
  ])
  t.same(cellOf(stratum('unsure', 200, 12, 8)), { size: 200, sampled: 20, counted: 20, successes: 12 })
})

t.test(
  'not estimable while a stratum with answers has no sample, with the reviews that would make it so',
  async (t) => {
    const e = estimateAccuracy(
      audit(stratum('unsure', 200, 12, 8), stratum('confident', 800, 0, 0, { next: 'c0', needed: 1 })),
      naive,
    )
    t.match(e, { estimable: false, point: null, interval: null, needed: 1 })
    t.match(e.strata[2], { weight: null, accuracy: null, next: 'c0', needed: 1 })
    t.match(
      estimateAccuracy(audit(stratum('unsure', 0, 0, 0), stratum('confident', 0, 0, 0)), naive),
      { estimable: false, needed: 1 },
      'no answers at all',
    )
  },
)

t.test('the worked example of docs/review.md', async (t) => {
  const confident = stratum('confident', 850, 28, 1, { sampled: 30, ambiguous: 1 })
  const e = estimateAccuracy(audit(stratum('unsure', 150, 12, 8, { outside: 3 }), confident), {
    accuracy: 41 / 52,
    interval: [0.6597, 0.8776],
    counted: 52,
  })
  const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits
  t.equal(round(e.point!, 6), 0.909091)
  t.same(
    e.interval!.map((x) => round(x, 3)),
    [0.812, 0.959],
  )
  t.same(
    e.strata.map((s) => round(s.weight!, 6)),
    [0, 0.154374, 0.845626],
  )
  t.match(e.strata[1], { outside: 3, counted: 20, correct: 12 })
  t.match(e.strata[2], { sampled: 30, counted: 29, correct: 28, ambiguous: 1 })
})
