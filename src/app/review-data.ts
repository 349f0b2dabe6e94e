import { estimateAccuracy, type AccuracyEstimate } from '../core/review/estimate.ts'
import { scoredRows, scoreJudgment, type QuestionScore } from '../core/review/accuracy.ts'
import { readDistribution } from '../core/judge/answer.ts'
import { buildQueue, disagrees, PAGE_SIZE, type Queue, type QuestionAnswers } from '../core/review/queue.ts'
import { STRATA } from '../core/review/strata.ts'
import type { Question } from '../core/types.ts'
import { auditOf } from './audit-data.ts'
import { rankedRows, type ReviewSource } from './review-source.ts'

export type { ReviewSource } from './review-source.ts'

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
    // Enough unsure answers to fill a page after dropping every row reviewed or offered before.
    const skipped = reviewedCount(source, question) + audit + keyed.filter((a) => disagrees(question, a, key.get(a.stateHash))).length
    const strata = {
      confident: rankedRows(source, question, 'confident', audit),
      unsure: rankedRows(source, question, 'unsure', limit + skipped),
    }
    // unsure_below 0 leaves the stratum empty: no margin is below 0.
    if (spec.unsureBelow > 0 && strata.unsure.rows.length === limit + skipped) moreUnsure = true
    return { question, keyed, strata }
  })
  const outside = answers.flatMap((qa) => STRATA.flatMap((s) => qa.strata[s].rows)).map((a) => a.stateHash).filter((h) => !key.has(h))
  const states = outside.length > 0 ? store.getStates([...new Set(outside)]) : new Map()
  return { ...buildQueue({ spec, answers, key, verdicts, states, audit, limit }), moreUnsure, model }
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

/** A question's pooled score with the sampling-aware estimate beside it. */
export interface ScoredQuestion extends QuestionScore {
  readonly estimate: AccuracyEstimate
}

/** The accuracy of every question of a judgment, from the store's current answers, asking nothing. */
export function accuracyData(source: ReviewSource): Record<string, ScoredQuestion> {
  const scores = scoreJudgment(source.spec, source.key, source.verdicts, currentLabels(source))
  return Object.fromEntries(source.spec.questions.map((q) => [q.name, { ...scores[q.name], estimate: estimateAccuracy(auditOf(source, q), scores[q.name]) }]))
}

function reviewedCount(source: ReviewSource, question: Question): number {
  let n = 0
  for (const v of source.verdicts.values()) if (v.judgment === source.spec.name && v.question === question.name) n += 1
  return n
}
