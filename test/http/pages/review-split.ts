import t from 'tap'
import type { Lease } from '../../../src/core/review/leases.ts'
import type { Card } from '../../../src/core/review/queue.ts'
import { listedRows } from '../../../src/http/page-data/review-listed.ts'
import { reviewHeader } from '../../../src/http/pages/review-header.ts'
import { reviewPage } from '../../../src/http/pages/review.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

// A jury's rows where jurors disagree have a chip, a filter and counts of their own on the review page, in plain words;
// with one model's answers, which have none, the page names no such rows.

const none = { disagreement: 0, spot_check: 0, split: 0, unsure: 0 }

t.test('the split rows have their chip, between the spot checks and the unsure rows, and their filter', async (t) => {
  const header = reviewHeader(
    reviewPageData({
      left: { disagreement: 0, spot_check: 1, split: 12, unsure: 5 },
      listed_by_question: {
        is_spam: { disagreement: 0, spot_check: 1, split: 12, unsure: 5 },
        topic: none,
        urgency: none,
      },
    }),
    null,
  ).text
  t.match(
    header,
    /kind=spot_check">1 spot check<\/a><\/li><li><a [^>]*kind=split">12 where jurors disagree<\/a><\/li><li><a [^>]*kind=unsure">5 unsure<\/a>/,
  )
  t.match(header, /<option value="split">rows where jurors disagree<\/option>/)
  t.match(header, /all 18<\/a>/, 'the split rows count among all')
})

t.test('with no split row the page names none, unless the filter asks for them', async (t) => {
  const header = reviewHeader(reviewPageData(), null).text
  t.notMatch(header, /jurors disagree/)
  const filtered = reviewHeader(reviewPageData({ filter: { kind: 'split', question: null, row: null } }), null).text
  t.match(filtered, /<option value="split" selected>rows where jurors disagree<\/option>/)
  t.match(filtered, /aria-current="true">0 where jurors disagree<\/a>/)
})

t.test('the reviews a target still takes name the split stratum when it needs some', async (t) => {
  const page = reviewPage(
    reviewPageData({
      targets: {
        is_spam: { accuracy_target: 0.05, reviews_needed: { split: 4, unsure: 3, confident: 9 } },
        topic: { accuracy_target: null, reviews_needed: null },
        urgency: { accuracy_target: null, reviews_needed: null },
      },
    }),
    null,
  ).text
  t.match(page, /about <strong>16<\/strong> more reviews \(4 where jurors disagree, 3 unsure, 9 confident\)/)
})

t.test('split rows are listed as the store counts them, less those another reviewer holds', async (t) => {
  const card = (kind: Card['kind'], stateHash: string) => ({ question: 'is_spam', kind, stateHash }) as Card
  const lease = (reviewer: string, c: Card): Lease => ({
    question: c.question,
    stateHash: c.stateHash,
    reviewer,
    until: 0,
    card: c,
  })
  const listed = listedRows(
    {
      offered: [card('split', 'j1'), card('unsure', 'u1')],
      left: { is_spam: { disagreement: 0, spot_check: 0, split: 7, unsure: 3 } },
      leases: [lease('bob', card('split', 'j2')), lease('ann', card('split', 'j3'))],
    },
    'ann',
  )
  t.same(listed.is_spam, { disagreement: 0, spot_check: 0, split: 6, unsure: 3 })
})
