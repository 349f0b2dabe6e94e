import type { Store } from '../ports/store.ts'
import { scoredRows, scoreJudgment, type QuestionScore } from '../core/review/accuracy.ts'
import { readDistribution } from '../core/judge/answer.ts'
import { buildQueue, disagrees, PAGE_SIZE, type Queue, type QuestionAnswers } from '../core/review/queue.ts'
import type { AnswerKey, Verdicts } from '../core/review/verdicts.ts'
import type { Question, Spec } from '../core/types.ts'

/** What the queue and the accuracy of one judgment are read from. */
export interface ReviewSource {
  readonly store: Store
  /** The model the judgment is asked with. */
  readonly model: string
  readonly spec: Spec
  /** The judgment's answer key; empty when it has none. */
  readonly key: AnswerKey
  readonly verdicts: Verdicts
}

/** Options of queueData. */
export interface QueueOptions {
  /** Spot-check rows per question. */
  readonly audit: number
  /** Rows per page; default PAGE_SIZE. */
  readonly limit?: number
}

/** A queue as read from the store. */
export interface StoredQueue extends Queue {
  /** The model whose answers the queue offers; absent when there is no store yet. */
  readonly model?: string
  /**
   * Whether the store may hold more unsure answers than were read (only enough to fill a page are):
   * the count of unsure rows offered is then a floor.
   */
  readonly moreUnsure: boolean
}

/** Reads the answers the queue of a judgment is built from, asking nothing, and builds it. */
export function queueData(source: ReviewSource, options: QueueOptions): StoredQueue {
  const { store, model, spec, key, verdicts } = source
  const limit = options.limit ?? PAGE_SIZE
  const audit = Math.max(0, Math.trunc(options.audit))
  const keyHashes = [...key.keys()]
  let moreUnsure = false
  const answers: QuestionAnswers[] = spec.questions.map((question) => {
    const keyed = keyHashes.length > 0 ? store.answersForStates(model, question.fingerprint, keyHashes) : []
    const sample = audit > 0 ? store.sampleAnswers(model, question.fingerprint, spec.name, question.name, audit) : []
    // Enough unsure answers to fill a page after dropping every row reviewed or offered before.
    const skipped = reviewedCount(source, question) + sample.length + keyed.filter((a) => disagrees(question, a, key.get(a.stateHash))).length
    const unsure = spec.unsureBelow === null ? [] : store.unsureAnswers(model, question.fingerprint, spec.unsureBelow, limit + skipped)
    if (spec.unsureBelow !== null && unsure.length === limit + skipped) moreUnsure = true
    return { question, keyed, sample, unsure }
  })
  const outside = answers.flatMap((qa) => [...qa.sample, ...qa.unsure]).map((a) => a.stateHash).filter((h) => !key.has(h))
  const states = outside.length > 0 ? store.getStates([...new Set(outside)]) : new Map()
  return { ...buildQueue({ spec, answers, key, verdicts, states, audit, unsureBelow: spec.unsureBelow, limit }), moreUnsure, model }
}

/** The model's current label per question and state hash, for every row the accuracy is scored on. */
export function currentLabels(source: ReviewSource): Map<string, Map<string, string>> {
  const { store, model, spec, key, verdicts } = source
  const current = new Map<string, Map<string, string>>()
  for (const question of spec.questions) {
    const hashes = scoredRows(spec.name, question.name, key, verdicts)
    const answers = hashes.length > 0 ? store.answersForStates(model, question.fingerprint, hashes) : []
    current.set(question.name, new Map(answers.map((a) => [a.stateHash, readDistribution(question, a.distribution).label])))
  }
  return current
}

/** The accuracy of every question of a judgment, from the store's current answers, asking nothing. */
export function accuracyData(source: ReviewSource): Record<string, QuestionScore> {
  return scoreJudgment(source.spec, source.key, source.verdicts, currentLabels(source))
}

function reviewedCount(source: ReviewSource, question: Question): number {
  let n = 0
  for (const v of source.verdicts.values()) if (v.judgment === source.spec.name && v.question === question.name) n += 1
  return n
}
