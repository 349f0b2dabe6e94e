import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { reaskStoreContract } from '../helpers/contracts/reask-store.ts'

await reaskStoreContract(t, 'the in-memory fake keeps the ReaskStore contract', createMemoryStore)
