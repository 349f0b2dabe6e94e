import t from 'tap'
import { createPace } from '../../../src/core/pacing/pace.ts'
import { createMemoryStore } from '../../helpers/memory-store.ts'

function clock() {
  let now = 1_000_000
  const sleeps: number[] = []
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      now += ms
    },
  }
}

t.test('turns are spaced at the rate, counting every request of a turn', async (t) => {
  const c = clock()
  const pace = createPace({ store: createMemoryStore(), key: 'e', rpm: 612, now: c.now, sleep: c.sleep })
  t.equal(await pace.turn(1, Infinity), 0)
  t.equal(await pace.turn(3, Infinity), 0)
  t.equal(await pace.turn(1, Infinity), 0)
  t.same(
    c.sleeps.map(Math.round),
    [100, 300],
    'a turn of three requests takes three spaces, each 2% wider than the rate',
  )
})

t.test('requests spent beyond their turns move the pace on without waiting', async (t) => {
  const c = clock()
  const pace = createPace({ store: createMemoryStore(), key: 'e', rpm: 612, now: c.now, sleep: c.sleep })
  t.equal(await pace.turn(1, Infinity), 0)
  pace.spent(3)
  t.same(c.sleeps, [], 'spending waits for nothing')
  t.equal(await pace.turn(1, Infinity), 0)
  t.same(c.sleeps.map(Math.round), [400], 'the next turn comes after the turn taken and the three spent')
})

t.test('two paces on one store share it', async (t) => {
  const c = clock()
  const store = createMemoryStore()
  const a = createPace({ store, key: 'e', rpm: 61.2, now: c.now, sleep: c.sleep })
  const b = createPace({ store, key: 'e', rpm: 61.2, now: c.now, sleep: c.sleep })
  await a.turn(1, Infinity)
  await b.turn(1, Infinity)
  t.same(c.sleeps.map(Math.round), [1000])
})

t.test('a turn further away than the caller waits is not taken, and says how far it is', async (t) => {
  const c = clock()
  const pace = createPace({ store: createMemoryStore(), key: 'e', rpm: 0, now: c.now, sleep: c.sleep })
  pace.hold(c.now() + 7000)
  t.equal(await pace.turn(1, 5000), 7000)
  t.same(c.sleeps, [])
  t.equal(await pace.turn(1, Infinity), 0)
  t.same(c.sleeps, [7000], 'a hold applies without a rate too')
})

t.test('a long wait is told while it lasts', async (t) => {
  let now = 0
  let wake!: () => void
  const pace = createPace({
    store: createMemoryStore(),
    key: 'e',
    rpm: 0,
    now: () => now,
    sleep: () => new Promise<void>((resolve) => (wake = resolve)),
  })
  pace.hold(6000)
  const turn = pace.turn(1, Infinity)
  await Promise.resolve()
  t.equal(pace.waitingUntil(), 6000)
  now = 6000
  wake()
  await turn
  t.equal(pace.waitingUntil(), null)
})

t.test('a turn taken before a hold is taken again after it', async (t) => {
  let now = 0
  const wakes: (() => void)[] = []
  const store = createMemoryStore()
  const pace = createPace({
    store,
    key: 'e',
    rpm: 0,
    now: () => now,
    sleep: () => new Promise<void>((resolve) => wakes.push(resolve)),
  })
  store.holdPace('e', 100)
  const turn = pace.turn(1, Infinity)
  await Promise.resolve()
  pace.hold(5000)
  now = 100
  wakes.shift()!()
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(wakes.length, 1, 'waiting again, for the hold')
  now = 5000
  wakes.shift()!()
  t.equal(await turn, 0)
})

t.test('a refusal widens the spacing at once for every pace on the store, once per round', async (t) => {
  const c = clock()
  const store = createMemoryStore()
  const a = createPace({ store, key: 'e', rpm: 612, now: c.now, sleep: c.sleep })
  const b = createPace({ store, key: 'e', rpm: 612, now: c.now, sleep: c.sleep })
  const sent = c.now()
  a.refused(sent)
  b.refused(sent - 1)
  t.equal(a.rate().cut?.ceiling, 612, 'the second refusal, sent before the cut, is the same round')
  t.equal(Math.round(b.rate().rpm), 520, 'the other pace keeps the cut rate: 85% of the refused')
  await b.turn(1, Infinity)
  await b.turn(1, Infinity)
  t.same(c.sleeps.map(Math.round), [118], 'spaced at the cut rate, 2% wider')
  t.same(createPace({ store, key: 'e', rpm: 0, now: c.now, sleep: c.sleep }).rate(), { rpm: 0, cut: null })
  createPace({ store, key: 'n', rpm: 0, now: c.now, sleep: c.sleep }).refused(sent)
  t.equal(store.paceCut('n'), null, 'an engine without a pace has no rate to cut')
})
