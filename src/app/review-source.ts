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

/**
 * Whether a stratum of the judgment can hold answers. A spec without jurors reads one model's answers, which no juror
 * dissents from: its `split` stratum is empty, and not read.
 */
export function mayHold(spec: Spec, stratum: Stratum): boolean {
  return stratum !== 'split' || (spec.jurors?.length ?? 0) > 0
}

/** The first `read` answers of one stratum of a question in rank order. */
export function rankedRows(source: ReviewSource, question: Question, stratum: Stratum, read: number): RankedRows {
  const { store, model, spec } = source
  return {
    rows:
      read > 0 && mayHold(spec, stratum)
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
  const { store, model, spec } = source
  const size = mayHold(spec, stratum)
    ? store.countAnswers(model, question.fingerprint, bandOf(stratum, spec.unsureBelow))
    : 0
  return { size, rows: size > 0 ? rankedRows(source, question, stratum, read).rows : [] }
}
