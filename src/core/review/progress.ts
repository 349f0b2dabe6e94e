import type { Verdicts } from './verdicts.ts'

/** The UTC day of a timestamp without zone offset (`2026-03-01T10:00:00.000`): `2026-03-01`. */
export function dayOf(timestamp: string): string {
  return timestamp.slice(0, 10)
}

/**
 * Rows of a judgment a reviewer settled on a UTC day: their standing verdicts signed with that
 * name and given that day. A verdict undone no longer stands, so it no longer counts.
 */
export function reviewedOn(verdicts: Verdicts, judgment: string, reviewer: string, day: string): number {
  let n = 0
  for (const v of verdicts.values()) if (v.judgment === judgment && v.reviewer === reviewer && dayOf(v.reviewed_at) === day) n += 1
  return n
}
