import t from 'tap'
import { createStateSet, createStateTally, tallyOver } from '../../../src/core/judge/state-set.ts'
import { stateHash } from '../../../src/core/judge/state.ts'

t.test('adds each state hash once and tells which it holds', async (t) => {
  const set = createStateSet()
  const a = stateHash({ message: 'a' })
  const b = stateHash({ message: 'b' })
  t.equal(set.add(a), true)
  t.equal(set.add(a), false)
  t.equal(set.has(a), true)
  t.equal(set.has(b), false)
  t.equal(set.add(b), true)
  t.equal(set.size, 2)
})

t.test('keeps every hash while it grows far past its first capacity', async (t) => {
  const set = createStateSet(4)
  const hashes = Array.from({ length: 5000 }, (_, i) => stateHash({ message: `m${i}` }))
  t.ok(
    hashes.every((h) => set.add(h)),
    'each is new once',
  )
  t.notOk(
    hashes.some((h) => set.add(h)),
    'and not twice',
  )
  t.equal(set.size, 5000)
  t.ok(hashes.every((h) => set.has(h)))
  t.notOk(set.has(stateHash({ message: 'other' })))
})

t.test('holds the hashes whose halves are zero', async (t) => {
  const set = createStateSet()
  for (const hash of ['0000000000000000', '00000000ffffffff', 'ffffffff00000000']) {
    t.equal(set.has(hash), false)
    t.equal(set.add(hash), true)
    t.equal(set.add(hash), false)
    t.equal(set.has(hash), true)
  }
  t.equal(set.size, 3)
})

t.test('refuses a string that is not a state hash', async (t) => {
  const set = createStateSet()
  t.throws(() => set.add('?0123456789abcdef'), TypeError)
  t.throws(() => set.has('0123456789ABCDEF'), TypeError)
})

t.test('a tally counts the rows of each state and lists them in hash order, through growth', async (t) => {
  const tally = createStateTally(4)
  const hashes = Array.from({ length: 3000 }, (_, i) => stateHash({ message: `m${i}` }))
  for (const [i, h] of hashes.entries()) for (let n = 0; n <= i % 3; n++) tally.add(h)
  t.equal(tally.size, 3000)
  t.equal(tally.rowsOf(hashes[0]), 1)
  t.equal(tally.rowsOf(hashes[2]), 3)
  t.equal(tally.rowsOf(stateHash({ message: 'never' })), 0)
  const entries = [...tally.entries()]
  t.same(
    entries.map((e) => e.stateHash),
    [...hashes].sort(),
    'every hash once, in hash order',
  )
  t.same(
    entries.map((e) => e.rows),
    entries.map((e) => (hashes.indexOf(e.stateHash) % 3) + 1),
  )
})

t.test('the all-zero hash is tallied like any other, first in order', async (t) => {
  const tally = createStateTally()
  const zero = '0'.repeat(16)
  t.equal(tally.add('ffffffffffffffff'), true)
  t.equal(tally.add(zero), true)
  t.equal(tally.add(zero), false)
  t.same(
    [...tally.entries()],
    [
      { stateHash: zero, rows: 2 },
      { stateHash: 'ffffffffffffffff', rows: 1 },
    ],
  )
  t.equal(tally.size, 2)
  t.same([...createStateTally().entries()], [], 'an empty tally lists nothing')
})

t.test("a tally counts a state's rows past 255", async (t) => {
  const tally = createStateTally()
  const a = stateHash({ message: 'a' })
  const b = stateHash({ message: 'b' })
  for (let n = 0; n < 1000; n++) tally.add(a)
  for (let n = 0; n < 255; n++) tally.add(b)
  t.equal(tally.rowsOf(a), 1000)
  t.equal(tally.rowsOf(b), 255)
  t.same(
    [...tally.entries()].map((e) => e.rows),
    a < b ? [1000, 255] : [255, 1000],
  )
})

t.test(
  'counting a state returns its rows so far, past 255 and for the all-zero hash, over a taken-over table too',
  async (t) => {
    const tally = createStateTally()
    const a = stateHash({ message: 'a' })
    t.same(
      Array.from({ length: 300 }, () => tally.count(a)),
      Array.from({ length: 300 }, (_, i) => i + 1),
    )
    t.same([tally.count('0'.repeat(16)), tally.count('0'.repeat(16))], [1, 2])
    t.equal(tally.size, 2)
    const set = createStateSet()
    set.add(a)
    const over = tallyOver(set)
    t.same([over.count(a), over.count(a), over.size], [1, 2, 1], 'a planned state counts from 1')
    const counted = createStateTally()
    counted.count(a)
    counted.count(a)
    const again = tallyOver(counted)
    t.same([again.count(a), again.size], [1, 1], "a tally's table is taken over with its counts at nothing")
    t.throws(() => tallyOver(counted), TypeError, 'once')
  },
)

t.test('hashes crowded at either end of the order are all kept, in order', async (t) => {
  const tally = createStateTally(8)
  const high = Array.from({ length: 1500 }, (_, i) => `ffffffff${i.toString(16).padStart(8, '0')}`)
  const low = Array.from({ length: 1500 }, (_, i) => `00000000${(i + 1).toString(16).padStart(8, '0')}`)
  const all = [...high, ...low]
  t.ok(
    [...all].reverse().every((h) => tally.add(h)),
    'each is new once',
  )
  t.ok(all.every((h) => tally.rowsOf(h) === 1 && !tally.add(h) && tally.rowsOf(h) === 2))
  t.equal(tally.size, 3000)
  t.same(
    [...tally.entries()].map((e) => e.stateHash),
    [...all].sort(),
  )
})

t.test('a set or tally made at the size it will hold lists what it was given', async (t) => {
  const hashes = Array.from({ length: 10_000 }, (_, i) => stateHash({ message: `n${i}` }))
  const tally = createStateTally(hashes.length)
  const set = createStateSet(hashes.length)
  t.ok(hashes.every((h) => tally.add(h) && set.add(h)))
  t.equal(tally.size, 10_000)
  t.equal(set.size, 10_000)
  t.same(
    [...tally.entries()].map((e) => e.stateHash),
    [...hashes].sort(),
  )
})

t.test("a tally over a set's table counts from nothing, and lists only the states it counted", async (t) => {
  const set = createStateSet(4)
  const planned = Array.from({ length: 3000 }, (_, i) => stateHash({ message: `m${i}` }))
  for (const h of planned) set.add(h)
  const tally = tallyOver(set)
  t.equal(tally.size, 0, 'none counted yet')
  t.equal(tally.has(planned[0]), false)
  t.same([...tally.entries()], [])
  const judged = planned.filter((_, i) => i % 2 === 0)
  for (const h of judged) t.equal(tally.add(h), true, 'a planned state is new the first time it is counted')
  t.equal(tally.add(judged[0]), false, 'and not the second')
  // States the plan did not see (a file changed since, a state that waited on a label) go in as in any tally, through growth.
  const unplanned = Array.from({ length: 3000 }, (_, i) => stateHash({ message: `new${i}` }))
  for (const h of unplanned) t.equal(tally.add(h), true)
  t.equal(tally.size, judged.length + unplanned.length)
  t.equal(tally.rowsOf(judged[0]), 2)
  t.equal(tally.rowsOf(planned[1]), 0, 'a planned state never judged')
  t.equal(tally.has(planned[1]), false)
  const entries = [...tally.entries()]
  t.same(
    entries.map((e) => e.stateHash),
    [...judged, ...unplanned].sort(),
    'the counted states, once each, in hash order',
  )
  t.equal(entries.find((e) => e.stateHash === judged[0])?.rows, 2)
})

t.test('a set is taken over once, and only a set made here', async (t) => {
  const set = createStateSet()
  set.add('0000000000000000')
  const tally = tallyOver(set)
  t.equal(tally.size, 0, 'the zero hash, kept aside, is not carried over either')
  t.equal(tally.add('0000000000000000'), true)
  t.throws(() => tallyOver(set), TypeError)
  t.throws(() => tallyOver({ add: () => true, has: () => false, size: 0 }), TypeError)
})
