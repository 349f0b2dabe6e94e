import { missingColumnHint } from './missing-column.ts'
import { InputError } from '../../errors.ts'
import { shortHash } from '../hash.ts'
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
    if (!Object.hasOwn(row, name)) throw new InputError(`${where}: the row lacks the state column "${name}"${missingColumnHint(name, row)}`)
    state[name] = stateValue(row[name])
  }
  return state
}

/** The state hash: the first 16 hex digits of SHA-256 of the state as JSON. */
export function stateHash(state: State): string {
  return shortHash(JSON.stringify(state))
}
