import t from 'tap'
import type { Card } from '../../../src/core/review/queue.ts'
import {
  filteredTotal,
  leftByKind,
  NO_FILTER,
  shows,
  viewQueue,
  type QueueLeft,
} from '../../../src/core/review/queue-view.ts'
import type { Kind } from '../../../src/core/review/verdicts.ts'

function card(kind: Kind, question: string, n: number): Card {
  return {
    judgment: 'spam',
    question,
    stateHash: n.toString(16).padStart(16, '0'),
    kind,
    stratum: kind === 'unsure' ? 'unsure' : 'confident',
    rank: n,
    state: { message: `m${n}` },
    modelLabel: 'no',
    p: 0.6,
    margin: 0.2,
    top: [],
    keyLabel: null,
    verdicts: [],
  }
}

// Two disagreements, three spot checks, then unsure rows of two questions; more unsure rows wait unread.
const offered = [
  card('disagreement', 'is_spam', 1),
  card('disagreement', 'is_spam', 2),
  card('spot_check', 'is_spam', 3),
  card('spot_check', 'topic', 4),
  card('spot_check', 'is_spam', 5),
  ...Array.from({ length: 30 }, (_, i) => card('unsure', i % 2 === 0 ? 'is_spam' : 'topic', 10 + i)),
]
const left: QueueLeft = {
  is_spam: { disagreement: 2, spot_check: 2, split: 0, unsure: 40 },
  topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 25 },
}

t.test('a filter shows the cards of its kind, question and row', async (t) => {
  t.ok(offered.every((c) => shows(NO_FILTER, c)))
  t.equal(offered.filter((c) => shows({ kind: 'unsure', question: 'topic', row: null }, c)).length, 15)
  t.same(
    offered.filter((c) => shows({ ...NO_FILTER, row: offered[3].stateHash }, c)),
    [offered[3]],
  )
})

t.test('the total counts every row left, also those not read yet; a row filter counts its cards', async (t) => {
  t.equal(filteredTotal(offered, left, NO_FILTER), 70)
  t.equal(filteredTotal(offered, left, { kind: 'unsure', question: null, row: null }), 65)
  t.equal(filteredTotal(offered, left, { kind: null, question: 'topic', row: null }), 26)
  t.equal(filteredTotal(offered, left, { kind: 'spot_check', question: 'is_spam', row: null }), 2)
  t.equal(filteredTotal(offered, left, { ...NO_FILTER, row: offered[0].stateHash }), 1)
  t.equal(filteredTotal(offered, left, { ...NO_FILTER, row: 'ffffffffffffffff' }), 0)
  t.same(leftByKind(left), { disagreement: 2, spot_check: 3, split: 0, unsure: 65 })
})

t.test('pages cut the filtered cards in queue order; a page past the last shows the last', async (t) => {
  const first = viewQueue(offered, left, NO_FILTER, 1, 25)
  t.same(first.cards, offered.slice(0, 25))
  t.match(first, { total: 70, page: 1, pages: 3, first: 1 })
  const second = viewQueue(offered, left, NO_FILTER, 2, 25)
  t.same(second.cards, offered.slice(25, 50))
  t.match(second, { page: 2, first: 26 })
  const topic = viewQueue(offered, left, { kind: 'unsure', question: 'topic', row: null }, 1, 10)
  t.same(
    topic.cards.map((c) => c.stateHash),
    offered
      .filter((c) => c.kind === 'unsure' && c.question === 'topic')
      .slice(0, 10)
      .map((c) => c.stateHash),
  )
  t.match(viewQueue(offered, left, { kind: 'spot_check', question: null, row: null }, 9, 25), {
    page: 1,
    pages: 1,
    first: 1,
    total: 3,
  })
  t.match(viewQueue([], { is_spam: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 } }, NO_FILTER, 3, 25), {
    cards: [],
    page: 1,
    pages: 1,
    first: 0,
    total: 0,
  })
  t.match(viewQueue(offered, left, NO_FILTER, 0, 25), { page: 1 }, 'a page before the first shows the first')
})
