import type { Test } from 'tap'
import type { LeaseStore } from '../../../src/ports/lease-store.ts'

const row = (stateHash: string, question = 'is_spam') => ({ question, stateHash, card: JSON.stringify({ stateHash }) })

/**
 * The LeaseStore contract: review holds shared by every process on one store. `open` gives two
 * handles on one store (two connections to one file, or one fake twice).
 */
export function leaseStoreContract(t: Test, title: string, open: (t: Test) => [LeaseStore, LeaseStore]): Promise<void> {
  return t
    .test(title, async (t) => {
      t.test('a row is held for one reviewer at a time, until a release or its end', async (t) => {
        const [one, two] = open(t)
        t.same([...one.holdRows('spam', 'ann', [row('a'), row('b')], 1000, 2000, 25)], ['is_spam\0a', 'is_spam\0b'])
        t.same(
          [...two.holdRows('spam', 'bob', [row('b'), row('c'), row('d')], 1500, 2500, 1)],
          ['is_spam\0c'],
          "b is ann's: c stands in, up to the most asked",
        )
        t.same(
          one.heldRows('spam', 1600).map((h) => `${h.reviewer} ${h.stateHash} ${h.until}`),
          ['ann a 2000', 'ann b 2000', 'bob c 2500'],
          'in the order taken, per reviewer',
        )
        t.same(two.heldRows('other', 1600), [], 'per judgment')
        t.same(JSON.parse(two.heldRows('spam', 1600)[0].card), { stateHash: 'a' }, 'the card as held')
        t.same(
          [...two.holdRows('spam', 'bob', [row('b')], 2000, 3000, 25)],
          ['is_spam\0b'],
          'at its end, b can be taken',
        )
        t.same(
          one.heldRows('spam', 2000).map((h) => `${h.reviewer} ${h.stateHash}`),
          ['bob b'],
          "bob's page released c; ann's a ended",
        )
        t.same([...one.holdRows('spam', 'ann', [row('b', 'topic')], 2000, 3000, 25)], ['topic\0b'], 'per question')
        two.releaseRow('spam', 'is_spam', 'b')
        t.same(
          one.heldRows('spam', 2000).map((h) => `${h.reviewer} ${h.question}`),
          ['ann topic'],
          'a verdict releases its row',
        )
        two.releaseReviewer('spam', 'ann')
        t.same(one.heldRows('spam', 2000), [], "an undo releases the reviewer's rows")
      })
    })
    .then(() => undefined)
}
