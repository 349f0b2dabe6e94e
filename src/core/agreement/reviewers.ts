import { wilsonInterval } from '../stats/wilson.ts'
import { agrees, labelled, type ReviewedPair } from './people.ts'

/** One reviewer's agreement with the others, over the rows they reviewed that someone else did too. */
export interface ReviewerAgreement {
  /** Labelled rows this reviewer shares with another reviewer. */
  readonly rows: number
  /** Share of those rows where the other reviewer gave a shared label. */
  readonly agreement: number
  /** Its 95% Wilson interval. */
  readonly interval: readonly [number, number]
  /** Agreement far below the others' among themselves (FLAG_MIN_ROWS, flagRule). */
  readonly flagged: boolean
}

/** Rows a reviewer, and the others among themselves, need before a reviewer can be flagged. */
export const FLAG_MIN_ROWS = 20

/**
 * A reviewer is flagged when they share at least FLAG_MIN_ROWS labelled rows with others, the
 * others share at least FLAG_MIN_ROWS among themselves (rows without this reviewer), and the
 * upper end of the reviewer's 95% Wilson interval lies below the lower end of the others' pooled
 * one: two intervals apart, which chance alone gives far less often than one time in twenty.
 * With two reviewers the others have no rows among themselves, so no one is flagged: whose error
 * a disagreement is takes a third.
 */
export function reviewerAgreement(pairs: readonly ReviewedPair[]): Record<string, ReviewerAgreement> {
  const counted = pairs.filter(labelled)
  const names = [...new Set(counted.flatMap((p) => [p.first.reviewer, p.second.reviewer]))].sort()
  const result: Record<string, ReviewerAgreement> = {}
  for (const name of names) {
    const involves = (p: ReviewedPair) => p.first.reviewer === name || p.second.reviewer === name
    const own = counted.filter(involves)
    const others = counted.filter((p) => !involves(p))
    const agreed = own.filter(agrees).length
    const interval = wilsonInterval(agreed, own.length)!
    const theirs = wilsonInterval(others.filter(agrees).length, others.length)
    const flagged =
      own.length >= FLAG_MIN_ROWS && others.length >= FLAG_MIN_ROWS && theirs !== null && interval[1] < theirs[0]
    result[name] = { rows: own.length, agreement: agreed / own.length, interval, flagged }
  }
  return result
}
