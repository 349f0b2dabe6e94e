import type { Answers, Spec } from '../types.ts'

/** What a memo keeps of one judgment's result for a state (judge-row.ts's SpecResult). */
export interface Remembered {
  readonly spec: Spec
  readonly stateHash: string
  readonly answers: Answers
}

/** The most states a pass remembers the answers of: some 1.5 kB each, 30 MB at the most. */
export const REPEAT_MEMO_LIMIT = 20_000

/**
 * The answers of states a pass met more than once, so that their later rows read nothing from the
 * store: data with bursts of identical rows reads each state's answers twice, not once a row. Only
 * results whose every answer came from the store are kept (answers are never changed, only added or
 * deleted, so they stand for the rest of the pass); a pass over distinct rows keeps nothing.
 */
export interface RepeatMemo<T extends Remembered> {
  get(judgment: string, stateHash: string): T | undefined
  /** Keeps a result met again, while fewer than the limit are kept and every answer is from the store. */
  keep(result: T): void
  readonly size: number
}

/** An empty memo that keeps at most `limit` results. */
export function createRepeatMemo<T extends Remembered>(limit = REPEAT_MEMO_LIMIT): RepeatMemo<T> {
  const results = new Map<string, T>()
  return {
    get: (judgment, stateHash) => results.get(`${judgment}\0${stateHash}`),
    keep(result) {
      const key = `${result.spec.name}\0${result.stateHash}`
      // A state's later rows come from the memo itself: kept once, it is not checked again.
      if (results.size >= limit || results.has(key)) return
      for (const q of result.spec.questions) if (!result.answers[q.name].cached) return
      results.set(key, result)
    },
    get size() {
      return results.size
    },
  }
}
