import { createWriteStream, type WriteStream } from 'node:fs'
import type { SpecResult } from '../../core/judge/judge-row.ts'
import type { Row, Spec } from '../../core/types.ts'
import { formatOf } from './rows.ts'
import { delimitedLine, delimiterOf } from './delimiter.ts'

/** Writes judged rows to a CSV, TSV or JSON Lines file in input order, whatever order they finish in. */
export interface AnswersWriter {
  write(seq: number, row: Row, results: ReadonlyMap<string, SpecResult>): void
  close(): Promise<void>
}

/**
 * Opens an answers file. Each row gets, per question, its label and `.p`, `.margin`, `.route`
 * columns, named `question` or, when several judgments are written, `judgment.question`.
 */
export function openAnswersWriter(file: string, specs: readonly Spec[]): AnswersWriter {
  const out: WriteStream = createWriteStream(file)
  const prefix = specs.length > 1
  const csv = formatOf(file) === 'csv'
  const delimiter = delimiterOf(file)
  const pending = new Map<number, Record<string, unknown>>()
  let next = 0
  let columns: string[] | null = null
  const flat = (row: Row, results: ReadonlyMap<string, SpecResult>) => {
    const record: Record<string, unknown> = { ...row }
    for (const spec of specs) {
      for (const [q, a] of Object.entries(results.get(spec.name)!.answers)) {
        const name = prefix ? `${spec.name}.${q}` : q
        Object.assign(record, {
          [name]: a.label,
          [`${name}.p`]: a.p,
          [`${name}.margin`]: a.margin,
          [`${name}.route`]: a.route,
        })
      }
    }
    return record
  }
  const line = (record: Record<string, unknown>) => {
    if (!csv) return JSON.stringify(record) + '\n'
    let text = ''
    if (!columns) {
      columns = Object.keys(record)
      text = delimitedLine(columns, delimiter)
    }
    return (
      text +
      delimitedLine(
        columns.map((c) => record[c] ?? ''),
        delimiter,
      )
    )
  }
  return {
    write(seq, row, results) {
      pending.set(seq, flat(row, results))
      while (pending.has(next)) {
        out.write(line(pending.get(next)!))
        pending.delete(next++)
      }
    },
    close: () =>
      new Promise((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve()))),
  }
}
