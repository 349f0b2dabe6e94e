import t from 'tap'
import type { Lease } from '../../../src/core/review/leases.ts'
import type { Card } from '../../../src/core/review/queue.ts'
import type { Kind } from '../../../src/core/review/verdicts.ts'
import { listedRows, spotChecksLater } from '../../../src/http/page-data/review-listed.ts'

const card = (question: string, kind: Kind, stateHash: string) => ({ question, kind, stateHash }) as Card
const lease = (reviewer: string, c: Card): Lease => ({
  question: c.question,
  stateHash: c.stateHash,
  reviewer,
  until: 0,
  card: c,
})

// The queue offered to ann: bob holds one spot check and one unsure row of is_spam, which are not offered to her.
const source = {
  offered: [
    card('is_spam', 'disagreement', 'd1'),
    card('is_spam', 'spot_check', 's1'),
    card('is_spam', 'spot_check', 's2'),
    card('topic', 'spot_check', 't1'),
    card('is_spam', 'unsure', 'u1'),
  ],
  left: {
    is_spam: { disagreement: 1, spot_check: 40, split: 0, unsure: 10 },
    topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 0 },
  },
  leases: [
    lease('bob', card('is_spam', 'spot_check', 's3')),
    lease('bob', card('is_spam', 'unsure', 'u2')),
    lease('ann', card('is_spam', 'unsure', 'u1')),
  ],
}

t.test(
  'the rows a page lists: spot checks offered now, unsure rows from the store, none held by another',
  async (t) => {
    const listed = listedRows(source, 'ann')
    t.same(listed, {
      is_spam: { disagreement: 1, spot_check: 2, split: 0, unsure: 9 },
      topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 0 },
    })
    t.same(listedRows(source, null).is_spam.unsure, 8, 'a view without a name: every hold is another’s')
    t.same(listedRows({ ...source, leases: undefined }, 'ann').is_spam.unsure, 10, 'no holds read')
    t.same(
      listedRows({ ...source, left: { is_spam: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 } } }, 'ann'),
      { is_spam: { disagreement: 1, spot_check: 2, split: 0, unsure: 0 } },
      'never below none; a question the counts do not name is left out',
    )
    t.same(
      listedRows({ ...source, left: { topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 0 } } }, 'ann'),
      { topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 0 } },
      'holds on a question the counts do not name are passed over',
    )
  },
)

t.test('the spot checks to come: those left less those offered now, listed or held by another', async (t) => {
  const listed = listedRows(source, 'ann')
  t.same(spotChecksLater(source, listed, 'ann'), { is_spam: 37, topic: 0 })
  t.same(spotChecksLater({ ...source, leases: undefined }, listed, 'ann'), { is_spam: 38, topic: 0 })
  t.same(
    spotChecksLater(
      { ...source, left: { topic: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 } } },
      listed,
      null,
    ),
    {
      topic: 0,
    },
  )
  const urgency = { urgency: { disagreement: 0, spot_check: 4, split: 0, unsure: 0 } }
  t.same(spotChecksLater({ ...source, left: urgency }, listed, 'ann'), { urgency: 4 }, 'none listed of a question')
})
