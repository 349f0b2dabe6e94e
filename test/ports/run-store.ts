import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { runStoreContract } from '../helpers/contracts/run-store.ts'

await runStoreContract(t, 'the in-memory fake keeps the RunStore contract', createMemoryStore)
