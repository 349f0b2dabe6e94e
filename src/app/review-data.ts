import { estimateAccuracy, type AccuracyEstimate } from '../core/review/estimate.ts'
import { scoredRows, scoreJudgment, type QuestionScore } from '../core/review/accuracy.ts'
import type { StoredAnswer } from '../ports/answer-store.ts'
import {
  buildQueue,
  disagrees,
  PAGE_SIZE,
  type Queue,
  type QuestionAnswers,
  type RankedRows,
} from '../core/review/queue.ts'
import type { QueueLeft } from '../core/review/queue-view.ts'
import { STRATA, stratumOf, type Stratum } from '../core/review/strata.ts'
import { questionAgreement, type QuestionAgreement } from '../core/agreement/agreement.ts'
import type { Reviews } from '../core/review/double-review.ts'
import type { Question } from '../core/types.ts'
import { sampleDesignOf } from './sample-design.ts'
import { strataState } from '../core/allocation/neyman.ts'
import { targetFigures, type TargetFigures } from '../core/allocation/reviews-needed.ts'
import { queueLeft } from './queue-left.ts'
import { spotChecks } from './review-allocation.ts'
import { rankedRows, type ReviewSource } from './review-source.ts'

export type { ReviewSource } from './review-source.ts'

/** Options of queueData. */
export interface QueueOptions {
  /** Spot-check rows per question. */
  readonly spotChecks: number
  /** Rows the queue must be able to show from its start, a page's end; default PAGE_SIZE. */
  readonly limit?: number
  /** States whose unsure answers are offered even when past the rows read (a reviewer opening one row). */
  readonly rows?: readonly string[]
  /**
   * Every standing verdict per row, and who the queue is for: rows chosen for a second review are offered to others.
   */
  readonly reviews?: Reviews
  readonly reviewer?: string
}

/** A queue as read from the store. */
export interface StoredQueue extends Queue {
  /** The model whose answers the queue offers; absent when there is no store yet. */
  readonly model?: string
  /** Rows of each kind left per question, counted over the whole queue, also the rows not read yet. */
  readonly left: QueueLeft
  /** Per question, the spec's accuracy target and the reviews per stratum it still takes. */
  readonly targets: Readonly<Record<string, TargetFigures>>
}

/** A question's answers as queueData reads them: every stratum's, the split one too. */
interface ReadAnswers extends QuestionAnswers {
  readonly strata: Readonly<Record<Stratum, RankedRows>>
}

/** Reads the answers the queue of a judgment is built from, asking nothing, and builds it. */
export function queueData(source: ReviewSource, options: QueueOptions): StoredQueue {
  const { store, model, spec, key, verdicts } = source
  const limit = options.limit ?? PAGE_SIZE
  const checks = Math.max(0, Math.trunc(options.spotChecks))
  const keyHashes = [...key.keys()]
  const spotLeft = new Map<string, number>()
  const targets: Record<string, TargetFigures> = {}
  const answers = spec.questions.map((question): ReadAnswers => {
    const keyed = keyHashes.length > 0 ? store.answersForStates(model, question.fingerprint, keyHashes) : []
    const reviewed = reviewedCount(source, question)
    // Allocation and the target read the question's sample design; the seed's order without a target reads none.
    const strata =
      spec.allocation === 'neyman' || spec.accuracyTarget !== null
        ? strataState(sampleDesignOf(source, question))
        : null
    targets[question.name] =
      strata === null ? { accuracy_target: null, reviews_needed: null } : targetFigures(strata, spec.accuracyTarget)
    const spot = spotChecks(source, question, { spotChecks: checks, limit, reviewed, strata })
    if (spot.left !== null) spotLeft.set(question.name, spot.left)
    // Enough unsure answers to fill a page after dropping every row reviewed or offered before.
    const skipped = reviewed + spot.depth + keyed.filter((a) => disagrees(question, a, key.get(a.stateHash))).length
    // The split rows come before the unsure ones: a page may need as many of each.
    const read = {
      confident: spot.rows,
      split: rankedRows(source, question, 'split', limit + skipped),
      unsure: rankedRows(source, question, 'unsure', limit + skipped),
    }
    return {
      question,
      keyed,
      strata: read,
      spotChecks: spot.depth,
      extra: extraRows(source, question, [...read.split.rows, ...read.unsure.rows], options.rows ?? []),
    }
  })
  const read = answers.flatMap((qa) => [...STRATA.flatMap((s) => qa.strata[s].rows), ...(qa.extra ?? [])])
  const outside = read.map((a) => a.stateHash).filter((h) => !key.has(h))
  const states = outside.length > 0 ? store.getStates([...new Set(outside)]) : new Map()
  const second =
    options.reviews && options.reviewer !== undefined ? { reviews: options.reviews, reviewer: options.reviewer } : {}
  const queue = buildQueue({ spec, answers, key, verdicts, states, spotChecks: checks, limit, ...second })
  return { ...queue, model, left: queueLeft(source, answers, queue.offered, spotLeft), targets }
}

/** The unsure and split answers of the states asked for that the rows read do not hold. */
function extraRows(
  source: ReviewSource,
  question: Question,
  read: readonly StoredAnswer[],
  rows: readonly string[],
): StoredAnswer[] {
  const held = new Set(read.map((a) => a.stateHash))
  const wanted = rows.filter((h) => !held.has(h))
  if (wanted.length === 0) return []
  return source.store
    .answersForStates(source.model, question.fingerprint, wanted)
    .filter((a) => stratumOf(a, source.spec.unsureBelow) !== 'confident')
}

/** The model's current label per question and state hash, for every row the accuracy is scored on. */
export function currentLabels(source: ReviewSource): Map<string, Map<string, string>> {
  const { store, model, spec, key, verdicts } = source
  const scored = spec.questions.map((q) => scoredRows(spec.name, q.name, key, verdicts))
  const all = [...new Set(scored.flat())]
  const labels =
    all.length > 0
      ? store.answerLabels(
          model,
          spec.questions.map((q) => q.fingerprint),
          all,
        )
      : new Map<string, Map<string, string>>()
  return new Map(
    spec.questions.map((q, i) => {
      const held = labels.get(q.fingerprint)
      return [q.name, new Map(scored[i].flatMap((h) => (held?.has(h) ? [[h, held.get(h)!]] : [])))]
    }),
  )
}

/**
 * A question's pooled score with the sampling-aware estimate, the agreement with people and the accuracy target beside
 * it.
 */
export interface ScoredQuestion extends QuestionScore {
  readonly estimate: AccuracyEstimate
  readonly agreement: QuestionAgreement
  readonly target: TargetFigures
}

/** The accuracy of every question of a judgment, from the store's current answers, asking nothing. */
export function scoredQuestions(source: ReviewSource): Record<string, ScoredQuestion> {
  const scores = scoreJudgment(source.spec, source.key, source.verdicts, currentLabels(source))
  return Object.fromEntries(
    source.spec.questions.map((q) => {
      const sampleDesign = sampleDesignOf(source, q)
      const agreement = questionAgreement({
        judgment: source.spec.name,
        sampleDesign,
        reviews: source.reviews ?? new Map(),
        key: source.key,
      })
      return [
        q.name,
        {
          ...scores[q.name],
          estimate: estimateAccuracy(sampleDesign, scores[q.name]),
          agreement,
          target: targetFigures(strataState(sampleDesign), source.spec.accuracyTarget),
        },
      ]
    }),
  )
}

function reviewedCount(source: ReviewSource, question: Question): number {
  let n = 0
  for (const v of source.verdicts.values()) if (v.judgment === source.spec.name && v.question === question.name) n += 1
  return n
}
