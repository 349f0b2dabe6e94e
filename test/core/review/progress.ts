import t from 'tap'
import { dayOf, reviewedOn } from '../../../src/core/review/progress.ts'
import { verdictKey, type VerdictRecord } from '../../../src/core/review/verdicts.ts'

function verdict(n: number, reviewer: string, at: string, judgment = 'spam'): [string, VerdictRecord] {
  const hash = n.toString(16).padStart(16, '0')
  return [
    verdictKey(judgment, 'is_spam', hash),
    {
      reviewed_at: at,
      reviewer,
      judgment,
      question: 'is_spam',
      state_hash: hash,
      kind: 'spot_check',
      verdict: 'confirmed',
      labels: ['no'],
      model_label: 'no',
      key_label: null,
      state: { message: `m${n}` },
      stratum: 'confident',
      rank: n,
    },
  ]
}

t.test('the day of a timestamp is its UTC date', async (t) => {
  t.equal(dayOf('2026-03-01T23:59:59.999'), '2026-03-01')
})

t.test(
  "a reviewer's rows of the day are their standing verdicts of that day on that judgment, second reviews included",
  async (t) => {
    const one = (entry: [string, VerdictRecord]): [string, VerdictRecord[]] => [entry[0], [entry[1]]]
    const [key, first] = verdict(6, 'bob', '2026-03-01T08:00:00.000')
    const reviews = new Map([
      ...[
        verdict(1, 'ann', '2026-03-01T09:00:00.000'),
        verdict(2, 'ann', '2026-03-01T17:00:00.000'),
        verdict(3, 'ann', '2026-02-28T23:59:00.000'),
        verdict(4, 'bob', '2026-03-01T10:00:00.000'),
        verdict(5, 'ann', '2026-03-01T10:00:00.000', 'tone'),
      ].map(one),
      [key, [first, { ...first, reviewer: 'ann', reviewed_at: '2026-03-01T18:00:00.000' }]],
    ])
    t.equal(reviewedOn(reviews, 'spam', 'ann', '2026-03-01'), 3, "a second review of bob's row counts for ann")
    t.equal(reviewedOn(reviews, 'spam', 'bob', '2026-03-01'), 2)
    t.equal(reviewedOn(reviews, 'spam', 'cy', '2026-03-01'), 0)
  },
)

t.test("every reviewer's progress: today, all time and held now, by name, holders without a verdict too", async (t) => {
  const { reviewerProgress } = await import('../../../src/core/review/progress.ts')
  const one = (entry: [string, VerdictRecord]): [string, VerdictRecord[]] => [entry[0], [entry[1]]]
  const [key, first] = verdict(6, 'bob', '2026-03-01T08:00:00.000')
  const reviews = new Map([
    ...[
      verdict(1, 'ann', '2026-03-01T09:00:00.000'),
      verdict(3, 'ann', '2026-02-28T23:59:00.000'),
      verdict(5, 'ann', '2026-03-01T10:00:00.000', 'tone'),
    ].map(one),
    [key, [first, { ...first, reviewer: 'ann', reviewed_at: '2026-03-01T18:00:00.000' }]],
  ])
  t.same(
    reviewerProgress(
      reviews,
      'spam',
      '2026-03-01',
      new Map([
        ['cy', 4],
        ['ann', 2],
        ['dee', 0],
      ]),
    ),
    [
      { reviewer: 'ann', today: 2, all_time: 3, held: 2 },
      { reviewer: 'bob', today: 1, all_time: 1, held: 0 },
      { reviewer: 'cy', today: 0, all_time: 0, held: 4 },
    ],
  )
})
