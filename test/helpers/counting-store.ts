import type { Store } from '../../src/ports/store.ts'
import { createMemoryStore } from './memory-store.ts'

/** A memory store that counts its answer lookups. */
export function countingStore(): { store: Store; reads: () => number } {
  const store = createMemoryStore()
  let reads = 0
  const getAnswers = store.getAnswers
  store.getAnswers = (...args) => {
    reads++
    return getAnswers.apply(store, args)
  }
  return { store, reads: () => reads }
}
