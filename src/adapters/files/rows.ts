/**
 * The format of a data file: by extension, JSON Lines for .jsonl/.ndjson/.json, delimited text (CSV, TSV) otherwise.
 */
export function formatOf(file: string): 'csv' | 'jsonl' {
  return /\.(jsonl|ndjson|json)$/i.test(file) ? 'jsonl' : 'csv'
}
