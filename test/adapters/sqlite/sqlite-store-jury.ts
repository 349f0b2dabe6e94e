import t from 'tap'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { juryStoreContract } from '../../helpers/contracts/jury-store.ts'

await juryStoreContract(t, 'the SQLite store keeps the JuryStore contract', () => openSqliteStore(':memory:'))
await juryStoreContract(t, 'the SQLite store with batched reads keeps the JuryStore contract', () =>
  openSqliteStore(':memory:', { batchReads: true }),
)
