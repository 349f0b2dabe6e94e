import type { RankedRows, StratumRows } from '../core/review/queue.ts'
import { bandOf, type Stratum } from '../core/review/strata.ts'
import type { Reviews } from '../core/review/double-review.ts'
import type { AnswerKey, Verdicts } from '../core/review/verdicts.ts'
import type { Question, Spec } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'

/** What the queue and the accuracy of one judgment are read from. */
export interface ReviewSource {
  readonly store: AnswerStore
  /** The model the judgment is asked with. */
  readonly model: string
  readonly spec: Spec
  /** The judgment's answer key; empty when it has none. */
  readonly key: AnswerKey
  readonly verdicts: Verdicts
  /** Every standing verdict per row, for the agreement between people; none when not read. */
  readonly reviews?: Reviews
}

/** The first `read` answers of one stratum of a question in rank order. */
export function rankedRows(source: ReviewSource, question: Question, stratum: Stratum, read: number): RankedRows {
  const { store, model, spec } = source
  return {
    rows:
      read > 0
        ? store.sampleAnswers(
            model,
            question.fingerprint,
            spec.name,
            question.name,
            read,
            bandOf(stratum, spec.unsureBelow),
          )
        : [],
  }
}

/** The size of one stratum of a question and its first `read` answers in rank order. */
export function stratumRows(source: ReviewSource, question: Question, stratum: Stratum, read: number): StratumRows {
  const size = source.store.countAnswers(source.model, question.fingerprint, bandOf(stratum, source.spec.unsureBelow))
  return { size, rows: size > 0 ? rankedRows(source, question, stratum, read).rows : [] }
}
