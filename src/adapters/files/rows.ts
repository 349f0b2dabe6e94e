import type { SourcedRow } from '../../core/types.ts'

/** The format of a data file: by extension, JSON Lines for .jsonl/.ndjson/.json, delimited text (CSV, TSV) otherwise. */
export function formatOf(file: string): 'csv' | 'jsonl' {
  return /\.(jsonl|ndjson|json)$/i.test(file) ? 'jsonl' : 'csv'
}

/**
 * Streams the rows of a delimited file with a header (CSV; TSV for .tsv; `delimiter` when given)
 * or a JSON Lines file, one at a time. The parsers (src/adapters/files/row-formats.ts, with
 * csv-parse and node:readline) are loaded with the first file read: a process that reads no data
 * file, a server or the library's judge(), loads none of them.
 */
export async function* readRows(file: string, label = file, delimiter?: string | null): AsyncGenerator<SourcedRow> {
  const { openRows } = await import('./row-formats.ts')
  yield* await openRows(file, label, formatOf(file), delimiter)
}
