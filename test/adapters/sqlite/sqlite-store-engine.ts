import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'

t.test('two connections to one store file share one pace: each slot is given once', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const a = openSqliteStore(file, { batchReads: true })
  const b = openSqliteStore(file, { batchReads: true })
  t.teardown(() => (a.close(), b.close()))
  const slots = [a, b, a, b, b, a].map((store) => store.reservePace('engine', 1000, 50, Infinity).at)
  t.same(slots, [1000, 1050, 1100, 1150, 1200, 1250])
  a.holdPace('engine', 9000)
  t.equal(b.reservePace('engine', 1000, 0, Infinity).at, 9000, 'a hold set by one is seen by the other')
})

t.test('spend added by two connections adds up, and is read back in the same turn by the one that wrote', async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  const a = openSqliteStore(file, { batchReads: true })
  const b = openSqliteStore(file)
  t.teardown(() => (a.close(), b.close()))
  t.same(a.spendByDay('server', 7), [])
  a.addSpend('2026-11-22', 'server', 0.5, 2)
  b.addSpend('2026-11-22', 'server', 0.25, 1)
  await new Promise((resolve) => setImmediate(resolve))
  t.same(a.spendByDay('server', 7), [{ day: '2026-11-22', cost: 0.75, requests: 3 }])
})
