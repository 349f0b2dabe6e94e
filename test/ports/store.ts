import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { sharedStoreContract } from '../helpers/contracts/store.ts'

await sharedStoreContract(
  t,
  'the in-memory fake is one store behind every port: a state known to one is known to all',
  createMemoryStore,
)
