import type { Test } from 'tap'
import type { Store } from '../../../src/ports/store.ts'
import { answerStoreContract } from './answer-store.ts'
import { forgetStoreContract } from './forget-store.ts'
import { freshOf } from './fresh.ts'
import { keptStoreContract } from './kept-store.ts'
import { paceStoreContract } from './pace-store.ts'
import { runStoreContract } from './run-store.ts'

/** The whole Store contract: each narrow port's, and what the ports share. One fresh store per test. */
export async function storeContract(t: Test, title: string, open: () => Store): Promise<void> {
  await t.test(title, async (t) => {
    await answerStoreContract(t, 'answers', open)
    await runStoreContract(t, 'runs', open)
    await keptStoreContract(t, 'kept rows and shadow pairs', open)
    await paceStoreContract(t, 'pace and spend', open)
    await forgetStoreContract(t, 'forgetting rows', open)
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
  })
}
