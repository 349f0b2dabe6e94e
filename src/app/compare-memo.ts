import type { ComparedRow, QuestionComparison } from '../core/compare/compare.ts'
import { sha256 } from '../core/hash.ts'
import type { Store } from '../ports/store.ts'

/** What a comparison reads from the store: the kept rows, and per shared question the rows compared. */
export interface Gathered {
  readonly kept: number
  readonly compared: number
  /** Per question the two specs share, its compared rows (state hash and both labels; no values). */
  readonly rows: ReadonlyMap<string, readonly ComparedRow[]>
  readonly cost_per_1000: { readonly live: number | null; readonly candidate: number | null }
}

/**
 * What a server keeps of the comparisons it made: the rows gathered from the store, held while
 * the write mark of every store read stands (any write, by any process, moves it), and each
 * question's comparison of them, held for the same margin and the same known labels of its rows.
 */
export interface CompareMemo {
  /** The rows gathered under `key`, made again by `gather` unless made after the stores' current marks. */
  gathered(key: string, stores: readonly Store[], gather: () => Gathered): Gathered
  /**
   * The comparison of one question of `gathered` for `key` (question, margin, known labels), made by `compare` unless
   * held.
   */
  question(gathered: Gathered, key: string, compare: () => QuestionComparison): QuestionComparison
}

/** Options of createCompareMemo. */
export interface CompareMemoOptions {
  /** Comparisons (live spec, candidate, models) held at most; past it the one used longest ago goes. */
  readonly entries?: number
  /** Question comparisons held per gathering at most (margins and label sets asked). */
  readonly questions?: number
}

interface Entry {
  readonly stores: readonly Store[]
  readonly marks: readonly number[]
  readonly gathered: Gathered
  readonly questions: Map<string, QuestionComparison>
}

/** An empty memo. */
export function createCompareMemo(options: CompareMemoOptions = {}): CompareMemo {
  const { entries: most = 8, questions: mostQuestions = 64 } = options
  const held = new Map<string, Entry>()
  const byGathered = new WeakMap<Gathered, Entry>()
  return {
    gathered(key, stores, gather) {
      // Read before gathering: a write landing meanwhile leaves rows newer than their marks, made again next time.
      const marks = stores.map((s) => s.writeMark())
      const entry = held.get(key)
      held.delete(key)
      if (entry && sameList(entry.stores, stores) && sameList(entry.marks, marks)) {
        held.set(key, entry)
        return entry.gathered
      }
      const fresh: Entry = { stores, marks, gathered: gather(), questions: new Map() }
      if (held.size >= most) held.delete(held.keys().next().value!)
      held.set(key, fresh)
      byGathered.set(fresh.gathered, fresh)
      return fresh.gathered
    },
    question(gathered, key, compare) {
      const entry = byGathered.get(gathered)
      const kept = entry?.questions.get(key)
      if (kept) return kept
      const made = compare()
      if (entry) {
        if (entry.questions.size >= mostQuestions) entry.questions.clear()
        entry.questions.set(key, made)
      }
      return made
    },
  }
}

/** A memo that keeps nothing: every comparison is made afresh (a command, which compares once). */
export const NO_MEMO: CompareMemo = {
  gathered: (_key, _stores, gather) => gather(),
  question: (_gathered, _key, compare) => compare(),
}

/**
 * A digest of the known labels of a question's compared rows: the part of the truth a comparison
 * reads (compareQuestion looks labels up only for its rows), so that a verdict on another row
 * leaves a comparison standing.
 */
export function truthDigest(rows: readonly ComparedRow[], truth: ReadonlyMap<string, readonly string[]>): string {
  const parts: string[] = []
  for (const r of rows) {
    const labels = truth.get(r.stateHash)
    if (labels !== undefined) parts.push(`${r.stateHash}\0${labels.join('\0')}`)
  }
  return sha256(parts.join('\n'))
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i])
}
