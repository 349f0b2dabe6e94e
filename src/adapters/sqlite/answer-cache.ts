import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'

/**
 * The store with, in front of its answer lookups, the answers it gave for the last `states`
 * (model, state hash) pairs read. Only what the store returned is kept, never what a caller wrote,
 * and an answer never changes once stored (first writer wins), so a kept answer is never stale; an
 * answer not found is not remembered as missing, so one stored later (by any process) is found.
 * Kept answers are frozen: a caller that tries to change one gets a TypeError, not a changed store.
 * Answers deleted (by any process) are dropped when the store's answers epoch is next read. Labels
 * asked for many states at once (answerLabels) are kept the same way, apart.
 */
export function cacheAnswers(store: Store, states: number): Store {
  const held = new Map<string, Map<string, StoredAnswer>>()
  const labels = heldLabels(store, states)
  const getAnswers = store.getAnswers
  const { answersEpoch, deleteAnswers } = store
  let epoch = answersEpoch.call(store)
  const clear = () => {
    held.clear()
    labels.clear()
  }
  return Object.assign(store, {
    answersEpoch(): number {
      const now = answersEpoch.call(store)
      if (now !== epoch) clear()
      epoch = now
      return now
    },
    deleteAnswers(group: Parameters<Store['deleteAnswers']>[0]): number {
      const deleted = deleteAnswers.call(store, group)
      if (deleted > 0) clear()
      return deleted
    },
    answerLabels: labels.read,
    getAnswers(model: string, stateHash: string, fingerprints: readonly string[]): Map<string, StoredAnswer> {
      const key = `${model}\0${stateHash}`
      let kept = held.get(key)
      if (kept === undefined || !fingerprints.every((fp) => kept!.has(fp))) {
        const read = getAnswers.call(store, model, stateHash, fingerprints)
        if (read.size === 0) return read
        kept = new Map(kept)
        for (const [fp, answer] of read) kept.set(fp, frozen(answer))
        if (!held.delete(key)) makeRoom(held, states)
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

/**
 * The labels the store gave for the last `states` (model, state hash) pairs read, by fingerprint,
 * in front of answerLabels (a server scores the same key rows and reviewed rows on every page):
 * a state is read again when it lacks a label asked for, so that an answer stored later is found.
 */
function heldLabels(store: Store, states: number): { read: Store['answerLabels']; clear(): void } {
  const held = new Map<string, Map<string, string>>()
  const answerLabels = store.answerLabels
  return {
    clear: () => held.clear(),
    read(model, fingerprints, stateHashes) {
      const found = new Map(fingerprints.map((fp) => [fp, new Map<string, string>()]))
      const missing: string[] = []
      for (const h of new Set(stateHashes)) {
        const kept = held.get(`${model}\0${h}`)
        if (kept === undefined || !fingerprints.every((fp) => kept.has(fp))) missing.push(h)
        else for (const fp of fingerprints) found.get(fp)!.set(h, kept.get(fp)!)
      }
      const read =
        missing.length > 0
          ? answerLabels.call(store, model, fingerprints, missing)
          : new Map<string, Map<string, string>>()
      for (const h of missing) {
        const key = `${model}\0${h}`
        const kept = new Map(held.get(key))
        for (const fp of fingerprints) {
          const label = read.get(fp)?.get(h)
          if (label === undefined) continue
          kept.set(fp, label)
          found.get(fp)!.set(h, label)
        }
        held.delete(key)
        if (kept.size === 0) continue
        makeRoom(held, states)
        held.set(key, kept)
      }
      return found
    },
  }
}

/**
 * Drops the entries read longest ago once a map holds `bound`: an eighth of them at once, in one
 * pass. Dropping one at a time from the front would make each drop walk past the slots the earlier
 * ones left, until the map is rehashed: a cost per lookup that grows with the bound.
 */
function makeRoom(held: Map<string, unknown>, bound: number): void {
  if (held.size < bound) return
  let drop = Math.max(1, held.size - bound + 1, Math.floor(bound / 8))
  for (const key of held.keys()) {
    held.delete(key)
    if (--drop === 0) break
  }
}

function frozen(answer: StoredAnswer): StoredAnswer {
  Object.freeze(answer.distribution)
  return Object.freeze(answer)
}
