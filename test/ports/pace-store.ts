import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { paceStoreContract } from '../helpers/contracts/pace-store.ts'

await paceStoreContract(t, 'the in-memory fake keeps the PaceStore contract', createMemoryStore)
