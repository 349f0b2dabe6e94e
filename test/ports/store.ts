import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { storeContract } from '../helpers/store-contract.ts'

await storeContract(t, 'the in-memory fake keeps the Store contract', createMemoryStore)
