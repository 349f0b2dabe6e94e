import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'

/**
 * The store with, in front of its answer lookups, the answers it gave for the last `states`
 * (model, state hash) pairs read. Only what the store returned is kept, never what a caller wrote,
 * and an answer never changes once stored (first writer wins), so a kept answer is never stale; an
 * answer not found is not remembered as missing, so one stored later (by any process) is found.
 * Kept answers are frozen: a caller that tries to change one gets a TypeError, not a changed store.
 * Answers deleted (by any process) are dropped when the store's answers epoch is next read.
 */
export function cacheAnswers(store: Store, states: number): Store {
  const held = new Map<string, Map<string, StoredAnswer>>()
  const getAnswers = store.getAnswers
  const { answersEpoch, deleteAnswers } = store
  let epoch = answersEpoch.call(store)
  return Object.assign(store, {
    answersEpoch(): number {
      const now = answersEpoch.call(store)
      if (now !== epoch) held.clear()
      epoch = now
      return now
    },
    deleteAnswers(group: Parameters<Store['deleteAnswers']>[0]): number {
      const deleted = deleteAnswers.call(store, group)
      if (deleted > 0) held.clear()
      return deleted
    },
    getAnswers(model: string, stateHash: string, fingerprints: readonly string[]): Map<string, StoredAnswer> {
      const key = `${model}\0${stateHash}`
      let kept = held.get(key)
      if (kept === undefined || !fingerprints.every((fp) => kept!.has(fp))) {
        const read = getAnswers.call(store, model, stateHash, fingerprints)
        if (read.size === 0) return read
        kept = new Map(kept)
        for (const [fp, answer] of read) kept.set(fp, frozen(answer))
        if (!held.delete(key) && held.size >= states) held.delete(held.keys().next().value!)
        held.set(key, kept)
      }
      const found = new Map<string, StoredAnswer>()
      for (const fp of fingerprints) {
        const answer = kept.get(fp)
        if (answer !== undefined) found.set(fp, answer)
      }
      return found
    },
  })
}

function frozen(answer: StoredAnswer): StoredAnswer {
  Object.freeze(answer.distribution)
  return Object.freeze(answer)
}
