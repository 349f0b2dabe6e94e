import t from 'tap'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { answerStoreContract } from '../helpers/contracts/answer-store.ts'

await answerStoreContract(t, 'the in-memory fake keeps the AnswerStore contract', createMemoryStore)
