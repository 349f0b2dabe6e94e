import {
  questionSample,
  knownHashes,
  knownRows,
  rowsToRead,
  type QuestionSample,
} from '../core/review/sample-design.ts'
import type { StratumRows } from '../core/review/queue.ts'
import { STRATA, type Stratum } from '../core/review/strata.ts'
import { MIN_COUNTED } from '../core/review/stratum-sample.ts'
import type { Question } from '../core/types.ts'
import { stratumRows, type ReviewSource } from './review-source.ts'

/**
 * The sample design of one question, read from the store: its known rows (verdicts, and a random key's
 * labels) with their current answers, and each stratum's rank order read just past them.
 */
export function sampleDesignOf(source: ReviewSource, question: Question): QuestionSample {
  const { store, model, spec, key, verdicts } = source
  const base = { judgment: spec.name, question, key, randomKey: spec.keySample === 'random', verdicts }
  const hashes = knownHashes(base)
  const answers = hashes.length > 0 ? store.answersForStates(model, question.fingerprint, hashes) : []
  const known = knownRows({ ...base, answers: new Map(answers.map((a) => [a.stateHash, a])) })
  const read = rowsToRead(known, spec.unsureBelow, MIN_COUNTED)
  const strata = Object.fromEntries(STRATA.map((s) => [s, stratumRows(source, question, s, read[s])])) as Record<
    Stratum,
    StratumRows
  >
  return questionSample({ question, unsureBelow: spec.unsureBelow, strata, known })
}

/** The sample design of every question of a judgment, by question name. */
export function sampleDesigns(source: ReviewSource): Map<string, QuestionSample> {
  return new Map(source.spec.questions.map((q) => [q.name, sampleDesignOf(source, q)]))
}
