import t from 'tap'
import { leasedQueue, rowKey, type Lease } from '../../../src/core/review/leases.ts'
import type { Card, Queue } from '../../../src/core/review/queue.ts'
import { judgment } from '../../helpers/queue-input.ts'

function card(stateHash: string, kind: Card['kind'] = 'unsure', modelLabel = 'no'): Card {
  return {
    judgment: 'spam',
    question: 'is_spam',
    stateHash,
    kind,
    stratum: 'unsure',
    rank: 1,
    state: { message: stateHash },
    modelLabel,
    p: 0.55,
    margin: 0.1,
    top: [],
    keyLabel: null,
    verdicts: [{ verdict: 'confirmed', label: null, text: 'label is right' }],
  }
}

function queueOf(...hashes: string[]): Queue {
  const offered = hashes.map((h) => card(h))
  return { spec: judgment, offered, cards: offered }
}

const lease = (reviewer: string, c: Card): Lease => ({
  question: c.question,
  stateHash: c.stateHash,
  reviewer,
  until: 1,
  card: c,
})
const hashes = (q: Queue) => q.offered.map((c) => c.stateHash)
const never = () => false

t.test('rows held by another reviewer are not offered; a view without a name sees every row not held', async (t) => {
  const queue = queueOf('a', 'b', 'c', 'd')
  const leases = [lease('ann', card('b')), lease('bob', card('c'))]
  t.same(hashes(leasedQueue(queue, leases, 'ann', never, 25)), ['a', 'b', 'd'], 'ann keeps b, not c')
  t.same(hashes(leasedQueue(queue, leases, 'bob', never, 25)), ['a', 'c', 'd'])
  t.same(hashes(leasedQueue(queue, leases, null, never, 25)), ['a', 'd'])
  t.same(hashes(leasedQueue(queue, leases, null, never, 1)), ['a', 'd'], 'every row stays offered')
  t.same(
    leasedQueue(queue, leases, null, never, 1).cards.map((c) => c.stateHash),
    ['a'],
    'the page ends at the limit',
  )
  t.equal(leasedQueue(queue, [], 'ann', never, 25), queue, 'no hold, the queue as it is')
})

t.test(
  'a held card stays offered to its reviewer as it was offered, even when the queue has moved since',
  async (t) => {
    const was = card('b', 'spot_check', 'yes')
    const moved = leasedQueue(queueOf('a', 'c'), [lease('ann', was)], 'ann', never, 25)
    t.same(hashes(moved), ['b', 'a', 'c'], 'a row the queue no longer offers comes first')
    t.equal(moved.offered[0], was, 'as offered: its kind and the model label then')
    const inPlace = leasedQueue(queueOf('a', 'b', 'c'), [lease('ann', was)], 'ann', never, 25)
    t.same(hashes(inPlace), ['a', 'b', 'c'], 'a row still offered keeps its place')
    t.equal(inPlace.offered[1].kind, 'spot_check', 'with the card as held')
    const settled = leasedQueue(
      queueOf('a', 'c'),
      [lease('ann', was)],
      'ann',
      (q, h) => rowKey(q, h) === rowKey('is_spam', 'b'),
      25,
    )
    t.same(hashes(settled), ['a', 'c'], 'not once a verdict stands on it')
  },
)
