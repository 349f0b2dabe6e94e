import { readRows } from '../../adapters/files/local-files.ts'
import { looksLikeLabels, newTally, tallyValue, valuesShown, type ColumnTally } from '../../core/spec/label-like.ts'
import { nearestName } from '../../core/spec/nearest-name.ts'
import { answerColumn, ordinaryColumn, stateColumns } from '../../core/spec/starter.ts'
import type { Row } from '../../core/types.ts'
import { UsageError } from '../../errors.ts'
import type { DataRead } from './init-label.ts'

/** The flags that name the label column and the state columns. */
export interface ColumnFlags {
  readonly label?: string
  readonly state?: string
}

/** Which column holds the answers and which the engine sees, and the lines that say what init chose. */
export interface ColumnChoice {
  /** The label column, or null. */
  readonly label: string | null
  /** The state columns `--state` named, or null to split the columns by their names. */
  readonly state: readonly string[] | null
  /** The state columns the answer key is written with. */
  readonly keyState: readonly string[]
  readonly notes: readonly string[]
}

/**
 * Chooses the label and state columns. The label column is `--label`'s, else one named like an answer, else the one
 * state column whose values look like labels (src/core/spec/label-like.ts), said in a note. Several such columns
 * and no label stop init, as does a label column left as the only state: the engine is never shown the answer.
 */
export async function chooseColumns(
  read: DataRead,
  names: readonly string[],
  flags: ColumnFlags,
): Promise<ColumnChoice> {
  const given = flags.label === undefined ? null : namedColumn(read.label, names, flags.label, '--label')
  const state = flags.state === undefined ? null : stateList(read, names, flags.state, given)
  const open = state === null ? stateColumns(names, given).state : names.filter((c) => !state.includes(c))
  const candidates = open.filter((c) => c !== given && ordinaryColumn(c))
  // A label and a state both named leave nothing to guess: the file is not read.
  const tallies = await tallied(read, given !== null && state !== null ? [] : candidates)
  const suspects = [...tallies].filter(([, tally]) => looksLikeLabels(tally)).map(([column]) => column)
  const shown = (c: string) => `${c} (${valuesShown(tallies.get(c)!)})`
  const byName = given ?? answerColumn(state === null ? names : open)
  const kept = state === null && suspects.length > 0 ? [keptNote(suspects.map(shown))] : []
  if (byName !== null) return chosen(read, names, byName, state, kept)
  if (suspects.length === 1 && (state !== null || candidates.length > 1))
    return chosen(read, names, suspects[0], state, [tookNote(shown(suspects[0]))])
  if (suspects.length === 0 || state !== null) return chosen(read, names, null, state, [])
  throw new UsageError(
    suspects.length === 1
      ? `${read.label}: the column ${shown(suspects[0])} looks like labels and is the only column left for the ` +
          `state, where the engine would be shown the answer: name the state columns with --state A,B`
      : `${read.label}: the columns ${suspects.map(shown).join(' and ')} look like labels; init does not put ` +
          'them in the state, where the engine would be shown the answer: name the answer column with --label ' +
          'COLUMN (the others stay in the state), or the state columns with --state A,B',
  )
}

/** The choice, once the label column is known to be out of the state. */
function chosen(
  read: DataRead,
  names: readonly string[],
  label: string | null,
  state: readonly string[] | null,
  notes: readonly string[],
): ColumnChoice {
  const keyState = state ?? stateColumns(names, label).state
  if (label !== null && keyState.includes(label))
    throw new UsageError(
      `${read.label}: the label column ${label} is the only column left for the state, where the engine would be ` +
        'shown the answer: give the file a column to judge, or name the state columns with --state A,B',
    )
  return { label, state, keyState, notes }
}

function tookNote(column: string): string {
  return (
    `taking ${column} as the label column: its values look like labels, so the engine is not shown them; ` +
    'to choose otherwise, give --label COLUMN, or the state columns with --state A,B'
  )
}

function keptNote(columns: readonly string[]): string {
  return (
    `in the state though its values look like labels: ${columns.join(', ')}; if it holds answers, ` +
    'name the state columns with --state A,B'
  )
}

/** Tallies the values of `columns` through the data file, stopping once none of them can look like labels. */
async function tallied(read: DataRead, columns: readonly string[]): Promise<Map<string, ColumnTally>> {
  const tallies = new Map(columns.map((c) => [c, newTally()]))
  if (columns.length === 0) return tallies
  for await (const { row } of readRows(read.file, read.label, read.delimiter, read.columns)) {
    for (const [column, tally] of tallies) tallyValue(tally, cellText(row, column))
    if ([...tallies.values()].every((t) => t.values === null)) break
  }
  return tallies
}

/** A cell as text: empty when the row lacks the column (an inherited name such as `constructor`) or holds null. */
function cellText(row: Row, column: string): string {
  const value = Object.hasOwn(row, column) ? row[column] : null
  return value === null ? '' : String(value)
}

/** The columns `--state` names, each one of the file's, none twice and not the label column. */
function stateList(read: DataRead, names: readonly string[], text: string, label: string | null): string[] {
  const list = text.split(',').map((c) => c.trim())
  if (list.some((c) => c === '') || new Set(list).size !== list.length)
    throw new UsageError(`--state must be distinct column names separated by commas, not ${JSON.stringify(text)}`)
  for (const column of list) namedColumn(read.label, names, column, '--state')
  if (label !== null && list.includes(label))
    throw new UsageError(`--state names ${label}, the label column: the engine would be shown the answer`)
  return list
}

/** A column a flag names: one of the file's, and one a row can hold. */
function namedColumn(file: string, names: readonly string[], column: string, flag: string): string {
  if (!names.includes(column)) {
    const near = nearestName(column, names)
    throw new UsageError(
      `${flag} ${column}: ${file} has no such column${near === null ? '' : ` (did you mean ${near}?)`}; ` +
        `its columns are ${names.join(', ')}`,
    )
  }
  if (column === '__proto__')
    throw new UsageError(`${flag} __proto__: the name __proto__ cannot be read from a row; rename the column`)
  return column
}
