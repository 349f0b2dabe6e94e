import { nearestName } from '../spec/nearest-name.ts'
import type { Row } from '../types.ts'

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
  const listed = columns.length > LISTED ? `${columns.slice(0, LISTED).map(quoted).join(', ')} and ${columns.length - LISTED} more` : columns.map(quoted).join(', ')
  const parts = [near === null ? '' : ` (did you mean "${near}"?)`, columns.length === 0 ? '; the row has no columns' : `; its columns are ${listed}`]
  const separator = columns.length === 1 ? SEPARATORS.find((s) => columns[0].includes(s)) : undefined
  if (separator !== undefined) {
    const flag = separator === '\t' ? 'tab' : `'${separator}'`
    const key = separator === '\t' ? 'tab' : JSON.stringify(separator)
    parts.push(`; the header is one column holding ${separator === '\t' ? 'tabs' : `"${separator}"`}: read the file with --delimiter ${flag}, or set delimiter: ${key} in the spec`)
  }
  return parts.join('')
}

function quoted(column: string): string {
  return JSON.stringify(column)
}
