import { UsageError } from '../../errors.ts'

/** The longest note a verdict may carry, in characters (code points). */
export const NOTE_MAX = 280

// Control characters (C0, DEL, C1) and the format characters that reorder or hide text (bidi
// overrides and isolates, the line and paragraph separators): a note is one line of plain text.
const CONTROL = /[\p{Cc}\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]+/gu

/**
 * A reviewer's note as it is saved: control characters each become a space (a line break, a tab),
 * runs of spaces one, the ends trimmed; empty is no note (null). Longer than NOTE_MAX characters
 * after that is a UsageError naming the field and its length.
 */
export function cleanNote(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null
  const note = raw.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim()
  if (note === '') return null
  const length = [...note].length
  if (length > NOTE_MAX)
    throw new UsageError(`the field note holds at most ${NOTE_MAX} characters; this one has ${length}`)
  return note
}
