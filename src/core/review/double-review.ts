import { sampleRank } from '../stats/sample-rank.ts'
import type { Kind, VerdictRecord, Verdicts } from './verdicts.ts'

/**
 * Every standing verdict of each row in the order given, keyed by verdictKey: one for most rows,
 * two or three for a row reviewed again by other people (docs/review.md, A second reviewer).
 */
export type Reviews = ReadonlyMap<string, readonly VerdictRecord[]>

/** The kinds whose rows are a random sample of their stratum: only they are reviewed twice. */
const SAMPLED: readonly Kind[] = ['spot_check', 'split', 'unsure']

/** 2^48, the range of sampleRank. */
const RANKS = 2 ** 48

/**
 * Whether a row is one of the share chosen for a second review: a fixed draw from SHA-256 of
 * judgment, question and state hash, independent of its place in the sample, so that the rows
 * reviewed twice are a random subset of the rows reviewed, whoever reviews them and in any order.
 */
export function chosenForSecond(judgment: string, question: string, stateHash: string, share: number): boolean {
  if (!(share > 0)) return false
  // Another draw than the sample order's: a key of four parts, which no queue row's three can be.
  return sampleRank(judgment, 'double', question, stateHash) / RANKS < share
}

/**
 * Whether two verdicts on a row say the same: both save labels and share one (a `both_ok` agrees
 * with either of its labels), or both save none and are the same verdict (`needs_context`, `ambiguous`).
 */
export function sameCall(a: VerdictRecord, b: VerdictRecord): boolean {
  if (a.labels.length > 0 && b.labels.length > 0) return a.labels.some((l) => b.labels.includes(l))
  return a.labels.length === 0 && b.labels.length === 0 && a.verdict === b.verdict
}

/** Each reviewer's latest verdict of a row, in the order the reviewers first gave one. */
export function byReviewer(stack: readonly VerdictRecord[]): VerdictRecord[] {
  const latest = new Map<string, VerdictRecord>()
  for (const verdict of stack) latest.set(verdict.reviewer, verdict)
  return [...latest.values()]
}

/**
 * The verdict that counts for a row, from its standing verdicts in the order given, each
 * reviewer's latest taken: the first reviewer's, unless the first two reviewers differ and a third
 * settles it, when the one of the first two the third agrees with counts. Until a third verdict,
 * or when it agrees with neither, the first counts, so that a row never counts twice and a second
 * opinion never drops a reviewed row from the estimate.
 */
export function countingVerdict(stack: readonly VerdictRecord[]): VerdictRecord {
  const [first, second, third] = byReviewer(stack)
  if (second === undefined || third === undefined || sameCall(first, second)) return first
  if (sameCall(third, first)) return first
  return sameCall(third, second) ? second : first
}

/** The verdict that counts of every row with a standing verdict. */
export function countingVerdicts(reviews: Reviews): Verdicts {
  const counting = new Map<string, VerdictRecord>()
  for (const [key, stack] of reviews) if (stack.length > 0) counting.set(key, countingVerdict(stack))
  return counting
}

/** What decides whether a reviewed row is offered again to a reviewer. */
export interface SecondOffer {
  readonly judgment: string
  readonly question: string
  readonly stateHash: string
  /** The kind the queue would offer the row as. */
  readonly kind: Kind
  /** The spec's `double_review` share. */
  readonly share: number
  /** Who is reviewing: a row is never offered again to someone who reviewed it. */
  readonly reviewer: string
}

/**
 * Whether a row with standing verdicts is offered again to this reviewer: a random-sample row
 * chosen for a second review that this reviewer has not reviewed, while it has one verdict, or
 * two that differ (a third reviewer settles them).
 */
export function offeredAgain(stack: readonly VerdictRecord[], offer: SecondOffer): boolean {
  if (stack.length === 0) return true
  if (!SAMPLED.includes(offer.kind) || !SAMPLED.includes(stack[0].kind)) return false
  if (!chosenForSecond(offer.judgment, offer.question, offer.stateHash, offer.share)) return false
  if (stack.some((v) => v.reviewer === offer.reviewer)) return false
  const people = byReviewer(stack)
  return people.length === 1 || (people.length === 2 && !sameCall(people[0], people[1]))
}
