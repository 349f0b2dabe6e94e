import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { batchStoreContract } from '../helpers/contracts/batch-store.ts'

await batchStoreContract(t, 'the in-memory fake keeps the BatchStore contract', createMemoryStore)
