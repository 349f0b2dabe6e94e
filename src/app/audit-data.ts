import { auditQuestion, knownHashes, knownRows, rowsToRead, type QuestionAudit } from '../core/review/audit.ts'
import { MIN_COUNTED } from '../core/review/stratum-sample.ts'
import type { Question } from '../core/types.ts'
import { stratumRows, type ReviewSource } from './review-source.ts'

/**
 * The audit of one question, read from the store: its known rows (verdicts, and a random key's
 * labels) with their current answers, and each stratum's rank order read just past them.
 */
export function auditOf(source: ReviewSource, question: Question): QuestionAudit {
  const { store, model, spec, key, verdicts } = source
  const base = { judgment: spec.name, question, key, randomKey: spec.keySample === 'random', verdicts }
  const hashes = knownHashes(base)
  const answers = hashes.length > 0 ? store.answersForStates(model, question.fingerprint, hashes) : []
  const known = knownRows({ ...base, answers: new Map(answers.map((a) => [a.stateHash, a])) })
  const read = rowsToRead(known, spec.unsureBelow, MIN_COUNTED)
  const strata = {
    unsure: stratumRows(source, question, 'unsure', read.unsure),
    confident: stratumRows(source, question, 'confident', read.confident),
  }
  return auditQuestion({ question, unsureBelow: spec.unsureBelow, strata, known })
}

/** The audit of every question of a judgment, by question name. */
export function auditData(source: ReviewSource): Map<string, QuestionAudit> {
  return new Map(source.spec.questions.map((q) => [q.name, auditOf(source, q)]))
}
