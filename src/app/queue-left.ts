import { disagrees, type Card, type QuestionAnswers } from '../core/review/queue.ts'
import type { QueueLeft } from '../core/review/queue-view.ts'
import { bandOf, stratumOf } from '../core/review/strata.ts'
import { KINDS, verdictKey, type Kind } from '../core/review/verdicts.ts'
import type { StoredAnswer } from '../ports/answer-store.ts'
import { mayHold, type ReviewSource } from './review-source.ts'

/**
 * Rows of each kind left in the queue, per question. Disagreements are all offered, so they are
 * counted off the queue, as spot checks are but for those allocation offers later (`spotLeft`); the split and unsure
 * rows are counted in the store: each stratum less its rows offered as a disagreement or holding a verdict, plus
 * those offered for a second review. The queue reads split and unsure rows
 * only as far as a page needs, so counting what it read would grow as a reviewer works.
 */
export function queueLeft(
  source: ReviewSource,
  answers: readonly QuestionAnswers[],
  offered: readonly Card[],
  spotLeft: ReadonlyMap<string, number> = new Map(),
): QueueLeft {
  const left: Record<string, Record<Kind, number>> = {}
  for (const qa of answers) {
    const counts = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>
    const second = { split: 0, unsure: 0 }
    for (const card of offered) {
      if (card.question !== qa.question.name) continue
      if (card.kind !== 'unsure' && card.kind !== 'split') counts[card.kind] += 1
      // Reviewed rows awaiting a second review are read and offered, though the store count leaves them out.
      else if (source.verdicts.has(verdictKey(source.spec.name, card.question, card.stateHash))) second[card.kind] += 1
    }
    counts.split = storedLeft(source, qa, 'split') + second.split
    counts.unsure = storedLeft(source, qa, 'unsure') + second.unsure
    // Under allocation the spot checks come a run at a time: those to come count too.
    counts.spot_check = Math.max(counts.spot_check, spotLeft.get(qa.question.name) ?? 0)
    left[qa.question.name] = counts
  }
  return left
}

/** A split or unsure stratum's rows not offered as a disagreement and without a verdict, counted in the store. */
function storedLeft(source: ReviewSource, qa: QuestionAnswers, stratum: 'split' | 'unsure'): number {
  const { store, model, spec, key, verdicts } = source
  // unsure_below 0 leaves the stratum empty: no margin is below 0.
  if (stratum === 'unsure' && spec.unsureBelow <= 0) return 0
  if (!mayHold(spec, stratum)) return 0
  const size = store.countAnswers(model, qa.question.fingerprint, bandOf(stratum, spec.unsureBelow))
  if (size === 0) return 0
  const gone = new Set<string>()
  const inStratum = (a: StoredAnswer) => stratumOf(a, spec.unsureBelow) === stratum
  for (const a of qa.keyed) if (inStratum(a) && disagrees(qa.question, a, key.get(a.stateHash))) gone.add(a.stateHash)
  const keyed = new Map(qa.keyed.map((a) => [a.stateHash, a]))
  const reviewed: string[] = []
  for (const v of verdicts.values())
    if (v.judgment === spec.name && v.question === qa.question.name) reviewed.push(v.state_hash)
  const unread = reviewed.filter((h) => !keyed.has(h))
  const answers = [
    ...reviewed.flatMap((h) => keyed.get(h) ?? []),
    ...(unread.length > 0 ? store.answersForStates(model, qa.question.fingerprint, unread) : []),
  ]
  for (const a of answers) if (inStratum(a)) gone.add(a.stateHash)
  return Math.max(0, size - gone.size)
}
