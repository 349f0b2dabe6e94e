import { stringify } from 'csv-stringify/sync'
import { UsageError } from '../../errors.ts'

/** The tab of tab-separated files. */
export const TAB = '\t'

/**
 * The cell separator of a delimited text file (a data, key or reviews file): the `--delimiter`
 * given, else a tab for `.tsv` and `.tab` files, else a comma.
 */
export function delimiterOf(file: string, given?: string | null): string {
  if (given !== undefined && given !== null) return given
  return /\.(tsv|tab)$/i.test(file) ? TAB : ','
}

/** Reads a `--delimiter` value: one character, or `tab` (also `\t`, as typed in a shell). */
export function parseDelimiter(raw: string): string {
  if (raw === 'tab' || raw === '\\t' || raw === TAB) return TAB
  if ([...raw].length !== 1 || raw === '"' || raw === '\n' || raw === '\r') {
    throw new UsageError(`--delimiter must be one character (or "tab"), not ${JSON.stringify(raw)}`)
  }
  return raw
}

/**
 * csv-parse options for a delimiter. Tab-separated files hold no quoting (a quote is part of the
 * text, as in the SMS collection), so a cell cannot hold a tab or a line break; other delimiters
 * quote as CSV does.
 */
export function parseOptions(delimiter: string): { delimiter: string; quote: string | false } {
  return { delimiter, quote: delimiter === TAB ? false : '"' }
}

/**
 * One line of a delimited file, newline included. A tab-separated line turns tabs and line breaks in a cell into
 * spaces, as TSV cannot hold them.
 */
export function delimitedLine(cells: readonly unknown[], delimiter: string): string {
  if (delimiter !== TAB) return stringify([cells], { delimiter })
  return cells.map((cell) => String(cell ?? '').replace(/[\t\r\n]/g, ' ')).join(TAB) + '\n'
}

/** What a delimiter is called in messages: "CSV", "TSV", or `";"-separated`. */
export function delimitedName(delimiter: string): string {
  return delimiter === ',' ? 'CSV' : delimiter === TAB ? 'TSV' : `${JSON.stringify(delimiter)}-separated text`
}
