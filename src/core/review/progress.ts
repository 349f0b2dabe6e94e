import { byReviewer, type Reviews } from './double-review.ts'

/** The UTC day of a timestamp without zone offset (`2026-03-01T10:00:00.000`): `2026-03-01`. */
export function dayOf(timestamp: string): string {
  return timestamp.slice(0, 10)
}

/**
 * Rows of a judgment a reviewer reviewed on a UTC day: rows whose standing verdicts include one
 * of theirs given that day, a second review included. A verdict undone no longer stands, so it
 * no longer counts.
 */
export function reviewedOn(reviews: Reviews, judgment: string, reviewer: string, day: string): number {
  let n = 0
  for (const stack of reviews.values()) {
    const theirs = byReviewer(stack).find((v) => v.reviewer === reviewer)
    if (theirs && theirs.judgment === judgment && dayOf(theirs.reviewed_at) === day) n += 1
  }
  return n
}
