import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { juryStoreContract } from '../helpers/contracts/jury-store.ts'

await juryStoreContract(t, 'the in-memory fake keeps the JuryStore contract', createMemoryStore)
