import type { StratumRows } from '../core/review/queue.ts'
import { bandOf, type Stratum } from '../core/review/strata.ts'
import type { AnswerKey, Verdicts } from '../core/review/verdicts.ts'
import type { Question, Spec } from '../core/types.ts'
import type { Store } from '../ports/store.ts'

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

/** The size of one stratum of a question and its first `read` answers in rank order. */
export function stratumRows(source: ReviewSource, question: Question, stratum: Stratum, read: number): StratumRows {
  const { store, model, spec } = source
  const band = bandOf(stratum, spec.unsureBelow)
  const size = store.countAnswers(model, question.fingerprint, band)
  const rows = read > 0 && size > 0 ? store.sampleAnswers(model, question.fingerprint, spec.name, question.name, read, band) : []
  return { size, rows }
}

