import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'

/** The answer lookups of a store with, in front of each, what it gave for the states read last. */
export interface AnswerCache {
  /** `read` (the store's getAnswers) behind the answers kept. */
  getAnswers(read: Store['getAnswers']): Store['getAnswers']
  /** `read` (the store's answerLabels) behind the labels kept. */
  answerLabels(read: Store['answerLabels']): Store['answerLabels']
}

/**
 * The answers a store gave for the last `states` (model, state hash) pairs read, and apart the
 * labels it gave for as many (answerLabels, which scores many states at once). Only what the store
 * returned is kept, never what a caller wrote; an answer not found is not remembered as missing, so
 * one stored later (by any process) is found. Kept answers are frozen: a caller that tries to
 * change one gets a TypeError, not a changed store. Everything kept is dropped when `mark` (the
 * store's write mark, read once per turn) moves: a write by this process or another, answers
 * deleted among them.
 */
export function createAnswerCache(states: number, mark: () => number): AnswerCache {
  const held = new Map<string, Map<string, StoredAnswer>>()
  const labels = heldLabels(states)
  let seen: number | null = null
  const fresh = () => {
    const now = mark()
    if (now === seen) return
    held.clear()
    labels.clear()
    seen = now
  }
  return {
    answerLabels: (read) => (model, fingerprints, stateHashes) => {
      fresh()
      return labels.read(read, model, fingerprints, stateHashes)
    },
    getAnswers: (read) => (model, stateHash, fingerprints) => {
      fresh()
      const key = `${model}\0${stateHash}`
      let kept = held.get(key)
      if (kept === undefined || !fingerprints.every((fp) => kept!.has(fp))) {
        const found = read(model, stateHash, fingerprints)
        if (found.size === 0) return found
        kept = new Map(kept)
        for (const [fp, answer] of found) kept.set(fp, frozen(answer))
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
  }
}

/**
 * The labels the store gave for the last `states` (model, state hash) pairs read, by fingerprint,
 * in front of answerLabels (a server scores the same key rows and reviewed rows on every page):
 * a state is read again when it lacks a label asked for, so that an answer stored later is found.
 */
function heldLabels(states: number): {
  read(
    answerLabels: Store['answerLabels'],
    ...args: Parameters<Store['answerLabels']>
  ): Map<string, Map<string, string>>
  clear(): void
} {
  const held = new Map<string, Map<string, string>>()
  return {
    clear: () => held.clear(),
    read(answerLabels, model, fingerprints, stateHashes) {
      const found = new Map(fingerprints.map((fp) => [fp, new Map<string, string>()]))
      const missing: string[] = []
      for (const h of new Set(stateHashes)) {
        const kept = held.get(`${model}\0${h}`)
        if (kept === undefined || !fingerprints.every((fp) => kept.has(fp))) missing.push(h)
        else for (const fp of fingerprints) found.get(fp)!.set(h, kept.get(fp)!)
      }
      const read =
        missing.length > 0 ? answerLabels(model, fingerprints, missing) : new Map<string, Map<string, string>>()
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
