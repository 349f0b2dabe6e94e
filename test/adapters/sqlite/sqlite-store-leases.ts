import t from 'tap'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { leaseMethods } from '../../../src/adapters/sqlite/sqlite-store-leases.ts'
import { leaseStoreContract } from '../../helpers/contracts/lease-store.ts'

await leaseStoreContract(t, 'two connections on one SQLite file keep the LeaseStore contract', (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  // The second reads as a server does, in one read transaction per turn: holds are read past it. Their clock stands
  // before every hold's end, which the contract's calls name.
  const now = () => 0
  const [one, two] = [openSqliteStore(file, { now }), openSqliteStore(file, { batchReads: true, now })]
  t.teardown(() => {
    one.close()
    two.close()
  })
  return [one, two]
})

t.test("every write to the store deletes the holds ended by the store's clock, whatever it writes", async (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  let clock = 1000
  const store = openSqliteStore(file, { now: () => clock })
  t.teardown(() => store.close())
  const rows = ['a', 'b'].map((h) => ({ question: 'is_spam', stateHash: h, card: '{}' }))
  store.holdRows('spam', 'ann', rows.slice(0, 1), 1000, 2000, 1)
  store.holdRows('spam', 'bob', rows.slice(1), 1000, 3000, 1)
  const held = () => {
    const db = new DatabaseSync(file, { readOnly: true })
    try {
      return db
        .prepare('SELECT reviewer FROM _judge_leases ORDER BY reviewer')
        .all()
        .map((r) => r.reviewer)
    } finally {
      db.close()
    }
  }
  clock = 1999
  store.reservePace('e', clock, 10, Infinity)
  t.same(held(), ['ann', 'bob'], 'none has ended')
  clock = 2000
  store.reservePace('e', clock, 10, Infinity)
  t.same(held(), ['bob'], "ann's ended: gone from the file with a write of something else")
  clock = 5000
  store.keepRow('spam', 'c', { message: 'hi' }, '2026-01-01T00:00:00.000')
  t.same(held(), [])
})

t.test('a store that can only be read keeps no hold: every row is offered to every reviewer', async (t) => {
  const store = leaseMethods(
    {} as never,
    () => {
      throw new Error('no write')
    },
    true,
  )
  const row = (stateHash: string) => ({ question: 'is_spam', stateHash, card: '{}' })
  t.same(
    [...store.holdRows('spam', 'ann', [row('a'), row('b'), row('c')], 1, 2, 2)],
    ['is_spam\0a', 'is_spam\0b'],
    'the first rows, as many as asked',
  )
  t.same(store.heldRows('spam', 1), [])
  store.releaseRow('spam', 'is_spam', 'a')
  store.releaseReviewer('spam', 'ann')
})

t.test(
  'a store on a full disk takes no hold: the first rows are offered as they are; any other failure is raised',
  async (t) => {
    const failing = (errcode: number) =>
      leaseMethods({} as never, () => {
        throw Object.assign(new Error('SQLite says no'), { errcode })
      })
    const rows = ['a', 'b', 'c'].map((h) => ({ question: 'is_spam', stateHash: h.repeat(16), card: '{}' }))
    t.same(
      [...failing(13).holdRows('spam', 'ann', rows, 0, 1000, 2)],
      [`is_spam\0${'a'.repeat(16)}`, `is_spam\0${'b'.repeat(16)}`],
    )
    t.throws(() => failing(11).holdRows('spam', 'ann', rows, 0, 1000, 2), /SQLite says no/)
  },
)
