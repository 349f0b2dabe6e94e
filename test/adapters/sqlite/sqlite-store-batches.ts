import t from 'tap'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { batchStoreContract, batchRecord } from '../../helpers/contracts/batch-store.ts'

await batchStoreContract(t, 'the SQLite store keeps the BatchStore contract', () => openSqliteStore(':memory:'))

t.test('a batch and its items are one transaction, kept across opening the file again', async (t) => {
  const file = `${t.testdir()}/judge.db`
  const store = openSqliteStore(file)
  store.recordBatch(batchRecord(), [{ key: 'k', stateHash: 'h', fingerprints: ['fp-a', 'fp-b'] }])
  store.close()
  const again = openSqliteStore(file)
  t.teardown(() => again.close())
  t.same(again.listBatches(['spam']), [batchRecord()])
  t.same(again.batchEntries(batchRecord().tag), [{ key: 'k', stateHash: 'h', fingerprints: ['fp-a', 'fp-b'] }])
})
