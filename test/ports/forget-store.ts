import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { forgetStoreContract } from '../helpers/contracts/forget-store.ts'

await forgetStoreContract(t, 'the in-memory fake keeps the ForgetStore contract', createMemoryStore)
