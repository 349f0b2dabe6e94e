import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { keptStoreContract } from '../helpers/contracts/kept-store.ts'

await keptStoreContract(t, 'the in-memory fake keeps the KeptStore contract', createMemoryStore)
