import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { leaseMethods } from '../../../src/adapters/sqlite/sqlite-store-leases.ts'
import { leaseStoreContract } from '../../helpers/contracts/lease-store.ts'

await leaseStoreContract(t, 'two connections on one SQLite file keep the LeaseStore contract', (t) => {
  const file = join(t.testdir(), 'store.sqlite')
  // The second reads as a server does, in one read transaction per turn: holds are read past it.
  const [one, two] = [openSqliteStore(file), openSqliteStore(file, { batchReads: true })]
  t.teardown(() => {
    one.close()
    two.close()
  })
  return [one, two]
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
