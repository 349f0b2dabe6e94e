import { InputError } from '../../errors.ts'
import { shortHash } from '../hash.ts'
import { nearestName } from '../spec/nearest-name.ts'
import type { Row, State, StateColumn } from '../types.ts'

/** Turns one value into its state string: strings as they are, null as "", anything else as JSON. */
export function stateValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (value === null || value === undefined) return ''
  return JSON.stringify(value)
}

/**
 * The state of a row: the values of the state columns in spec order, each as a string.
 * Extra columns are ignored; a missing one is an InputError naming it.
 */
export function stateOf(row: Row, columns: readonly StateColumn[], where: string): State {
  const state: Record<string, string> = {}
  for (const { name } of columns) {
    if (!Object.hasOwn(row, name))
      throw new InputError(`${where}: the row lacks the state column "${name}"${missingColumnHint(name, row)}`)
    state[name] = stateValue(row[name])
  }
  return state
}

/** The state hash: the first 16 hex digits of SHA-256 of the state as JSON. */
export function stateHash(state: State): string {
  return shortHash(JSON.stringify(state))
}

// Past this many, the list of a row's columns is cut: a person reads the first ones.
const LISTED = 20
const SEPARATORS = [';', '\t', '|', ',']

/**
 * Why a row lacks a state column, as the end of an error message: the nearest column the row has,
 * its columns, and when the row is one column holding a separator, the `--delimiter` that reads it.
 */
export function missingColumnHint(name: string, row: Row): string {
  const columns = Object.keys(row)
  const near = nearestName(name, columns)
  const listed =
    columns.length > LISTED
      ? `${columns.slice(0, LISTED).map(quoted).join(', ')} and ${columns.length - LISTED} more`
      : columns.map(quoted).join(', ')
  const parts = [
    near === null ? '' : ` (did you mean "${near}"?)`,
    columns.length === 0 ? '; the row has no columns' : `; its columns are ${listed}`,
  ]
  const separator = columns.length === 1 ? SEPARATORS.find((s) => columns[0].includes(s)) : undefined
  if (separator !== undefined) {
    const flag = separator === '\t' ? 'tab' : `'${separator}'`
    const key = separator === '\t' ? 'tab' : JSON.stringify(separator)
    parts.push(
      `; the header is one column holding ${separator === '\t' ? 'tabs' : `"${separator}"`}: ` +
        `read the file with --delimiter ${flag}, or set delimiter: ${key} in the spec`,
    )
  }
  return parts.join('')
}

function quoted(column: string): string {
  return JSON.stringify(column)
}
