import t from 'tap'
import { disagreementsOf, DISAGREEMENTS_SHOWN } from '../../../src/core/agreement/disagreements.ts'
import type { VerdictRecord } from '../../../src/core/review/verdicts.ts'

function verdict(n: number, more: Partial<VerdictRecord> = {}): VerdictRecord {
  return {
    reviewed_at: `2026-01-01T00:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000`,
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: n.toString(16).padStart(16, '0'),
    kind: 'spot_check',
    verdict: 'labeled',
    labels: ['no'],
    model_label: 'yes',
    key_label: null,
    state: {},
    stratum: 'confident',
    rank: n,
    ...more,
  }
}

const reviewsOf = (records: VerdictRecord[]) =>
  new Map(Map.groupBy(records, (r) => `${r.judgment}\0${r.question}\0${r.state_hash}`))

t.test('verdicts that leave the model label out are listed newest first, with their notes', async (t) => {
  const reviews = reviewsOf([
    verdict(1, { note: 'a reply to a friend' }),
    verdict(2, { verdict: 'confirmed', labels: ['yes'] }),
    verdict(3, { verdict: 'both_ok', labels: ['yes', 'no'] }),
    verdict(4, { verdict: 'needs_context', labels: [] }),
    verdict(5, { question: 'topic' }),
    verdict(6, { judgment: 'other' }),
    verdict(1, { reviewer: 'bob', reviewed_at: '2026-01-02T00:00:00.000' }),
  ])
  const { total, list } = disagreementsOf(reviews, 'spam', 'is_spam')
  t.equal(total, 3)
  t.same(
    list.map((d) => [d.state_hash.slice(-1), d.reviewer, d.verdict, d.labels, d.note]),
    [
      ['1', 'bob', 'labeled', ['no'], null],
      ['4', 'ann', 'needs_context', [], null],
      ['1', 'ann', 'labeled', ['no'], 'a reply to a friend'],
    ],
  )
})

t.test('the list holds the newest DISAGREEMENTS_SHOWN; the total counts them all', async (t) => {
  const records = Array.from({ length: DISAGREEMENTS_SHOWN + 5 }, (_, i) => verdict(i + 1))
  const { total, list } = disagreementsOf(reviewsOf(records), 'spam', 'is_spam')
  t.equal(total, DISAGREEMENTS_SHOWN + 5)
  t.equal(list.length, DISAGREEMENTS_SHOWN)
  t.equal(list[0].state_hash, records.at(-1)!.state_hash)
})
