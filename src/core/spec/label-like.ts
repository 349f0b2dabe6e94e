/** The most different values a column holds and still looks like labels. */
const LABEL_VALUES = 12

/** The longest value of a column that looks like labels. */
const LABEL_LENGTH = 40

/** What a column's values have been so far: its different values (null once past labels), and its filled cells. */
export interface ColumnTally {
  values: Set<string> | null
  filled: number
}

/** A tally of no values yet. */
export function newTally(): ColumnTally {
  return { values: new Set(), filled: 0 }
}

/** Counts one cell of a column: an empty one (after trimming) counts for nothing. */
export function tallyValue(tally: ColumnTally, cell: string): void {
  const value = cell.trim()
  if (value === '') return
  tally.filled += 1
  if (tally.values === null) return
  if (value.length > LABEL_LENGTH || /\p{Cc}/u.test(value)) tally.values = null
  else if (tally.values.add(value).size > LABEL_VALUES) tally.values = null
}

/**
 * Whether a column's values look like labels: 2 to LABEL_VALUES different values, each at most LABEL_LENGTH
 * characters without a control character, and each seen at least twice on average (filled cells at least twice the
 * values). Such a column in the state would show the engine the answer it is asked for.
 */
export function looksLikeLabels(tally: ColumnTally): boolean {
  return tally.values !== null && tally.values.size >= 2 && tally.filled >= 2 * tally.values.size
}

/** A column's values as a person reads them in a message: `3 values: low, medium, high`. */
export function valuesShown(tally: ColumnTally): string {
  const values = [...(tally.values ?? [])]
  return `${values.length} values: ${values.join(', ')}`
}
