import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { leaseStoreContract } from '../helpers/contracts/lease-store.ts'

await leaseStoreContract(t, 'the in-memory fake keeps the LeaseStore contract', () => {
  const store = createMemoryStore()
  return [store, store]
})
