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

/** One reviewer's progress on a judgment: rows settled today and in all, and rows held for them now. */
export interface ReviewerProgress {
  readonly reviewer: string
  readonly today: number
  readonly all_time: number
  readonly held: number
}

/**
 * Every reviewer's progress on a judgment, by name: rows with a standing verdict of theirs (today,
 * UTC, and in all), and rows held for them now (`held`, by reviewer); a reviewer holding rows
 * before their first verdict is listed too.
 */
export function reviewerProgress(
  reviews: Reviews,
  judgment: string,
  day: string,
  held: ReadonlyMap<string, number>,
): ReviewerProgress[] {
  const counts = new Map<string, { today: number; all_time: number }>()
  for (const stack of reviews.values()) {
    for (const v of byReviewer(stack)) {
      if (v.judgment !== judgment) continue
      const c = counts.get(v.reviewer) ?? { today: 0, all_time: 0 }
      c.all_time += 1
      if (dayOf(v.reviewed_at) === day) c.today += 1
      counts.set(v.reviewer, c)
    }
  }
  const names = [...new Set([...counts.keys(), ...[...held].filter(([, n]) => n > 0).map(([name]) => name)])].sort()
  return names.map((reviewer) => ({
    reviewer,
    today: counts.get(reviewer)?.today ?? 0,
    all_time: counts.get(reviewer)?.all_time ?? 0,
    held: held.get(reviewer) ?? 0,
  }))
}
