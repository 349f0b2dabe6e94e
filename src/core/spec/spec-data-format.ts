import { SpecError } from '../../errors.ts'
import { asList, describe, itemOf, optional, type YamlMap } from './spec-values.ts'

/** How a spec's data file is read: its cell separator, and its column names when it has no header line. */
export interface DataFormat {
  /** `delimiter:` — one character, a tab for `tab`; null reads the file by its extension. */
  readonly delimiter: string | null
  /** `columns:` — the data file has no header line and these are its columns, in order; null when it has one. */
  readonly columns: readonly string[] | null
}

/** Reads `delimiter` and `columns` of a spec's root mapping. */
export function parseDataFormat(root: YamlMap, file: string): DataFormat {
  return { delimiter: delimiter(optional(root, 'delimiter'), file), columns: columns(optional(root, 'columns'), file) }
}

function delimiter(value: unknown, file: string): string | null {
  if (value === undefined) return null
  if (value === 'tab' || value === '\t') return '\t'
  if (typeof value === 'string' && [...value].length === 1 && !'"\r\n'.includes(value)) return value
  throw new SpecError(
    file,
    'delimiter',
    `must be one character (the data file's cell separator, such as ";" or "|") or tab, not ${describe(value)}`,
  )
}

function columns(value: unknown, file: string): string[] | null {
  if (value === undefined) return null
  const list = asList(value, file, 'columns')
  if (list.length === 0)
    throw new SpecError(
      file,
      'columns',
      'needs at least one column name, or leave columns: out when the data file has a header line',
    )
  const seen = new Set<string>()
  return list.map((item, i) => {
    if (typeof item !== 'string' || item.trim() === '')
      throw new SpecError(file, itemOf('columns', i), `must be a column name, not ${describe(item)}`)
    if (seen.has(item)) throw new SpecError(file, itemOf('columns', i), `the column "${item}" is listed twice`)
    seen.add(item)
    return item
  })
}
