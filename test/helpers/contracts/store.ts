import type { Test } from 'tap'
import type { Store } from '../../../src/ports/store.ts'
import { answer } from './answer-store.ts'
import { answerStoreContract } from './answer-store.ts'
import { batchStoreContract } from './batch-store.ts'
import { forgetStoreContract } from './forget-store.ts'
import { juryStoreContract } from './jury-store.ts'
import { freshOf } from './fresh.ts'
import { keptStoreContract } from './kept-store.ts'
import { paceStoreContract } from './pace-store.ts'
import { reaskStoreContract } from './reask-store.ts'
import { runStoreContract } from './run-store.ts'

/** The whole Store contract: each narrow port's, and what the ports share. One fresh store per test. */
export async function storeContract(t: Test, title: string, open: () => Store): Promise<void> {
  await t.test(title, async (t) => {
    await answerStoreContract(t, 'answers', open)
    await runStoreContract(t, 'runs', open)
    await keptStoreContract(t, 'kept rows and shadow pairs', open)
    await paceStoreContract(t, 'pace and spend', open)
    await forgetStoreContract(t, 'forgetting rows', open)
    await reaskStoreContract(t, 'stability re-asks', open)
    await batchStoreContract(t, 'bulk submissions', open)
    await juryStoreContract(t, "jurors' label patterns", open)
    await sharedStoreContract(t, 'one file behind every port', open)
  })
}

/** What the ports share because they are one file: a state known to one is known to all. */
export async function sharedStoreContract(t: Test, title: string, open: () => Store): Promise<void> {
  await t.test(title, async (t) => {
    const fresh = freshOf(open)
    t.test('a kept row makes its state known to the store', async (t) => {
      const store = fresh(t)
      store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00')
      t.same(store.getStates(['state-0']).get('state-0'), { message: 'hi' })
    })
    t.test('the write mark stands while the store is only read, and moves with every kind of write', async (t) => {
      const store = fresh(t)
      let mark = store.writeMark()
      const moves = (what: string, write: () => unknown) => {
        write()
        t.not(store.writeMark(), mark, `${what} moves it`)
        mark = store.writeMark()
      }
      moves('an answer stored', () => store.putAnswers([answer()], 'state-0', { message: 'hi' }))
      moves('a row kept', () => store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-01T00:00:00'))
      moves('a kept row seen again', () => store.keepRow('spam', 'state-0', { message: 'hi' }, '2025-01-02T00:00:00'))
      store.getAnswers('jev-1', 'state-0', ['fp-spam'])
      store.keptRows('spam')
      store.countAnswers('jev-1', 'fp-spam')
      store.getRun('run-0')
      store.openRuns()
      store.labelPatterns(['jev-1', 'jev-2'], 'fp-spam')
      t.equal(store.writeMark(), mark, 'reads leave it')
      moves('a row forgotten', () =>
        store.forget({ values: ['state-0'], records: ['state-0'] }, { at: '2025-01-03T00:00:00', command: 'test' }),
      )
      moves('answers deleted', () =>
        store.deleteAnswers({ judgment: 'spam', question: 'is_spam', model: 'jev-1', fingerprint: 'fp-spam' }),
      )
    })
  })
}
