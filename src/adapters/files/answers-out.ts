import type { SpecResult } from '../../core/judge/judge-row.ts'
import type { Row, Spec } from '../../core/types.ts'
import { formatOf } from './rows.ts'
import { delimitedLine, delimiterOf } from './delimiter.ts'
import { openReplacement } from './safe-write.ts'

/** Writes judged rows to a CSV, TSV or JSON Lines file in input order, whatever order they finish in. */
export interface AnswersWriter {
  write(seq: number, row: Row, results: ReadonlyMap<string, SpecResult>): void
  /** Puts the file in place, whole: until then the file of that name is as it was. */
  close(): Promise<void>
  /** Drops what was written: the file of that name stays as it was. */
  discard(): Promise<void>
}

// The columns each answer adds after its label's.
const SUFFIXES = ['.p', '.margin', '.route'] as const

/** The label column of a question: `question` or, when several judgments are written, `judgment.question`; prefixed. */
function labelColumn(spec: Spec, question: string, several: boolean, prefix: string): string {
  return prefix + (several ? `${spec.name}.${question}` : question)
}

/** Every column the answers add to a row: per question its label, `.p`, `.margin` and `.route`. */
export function answerColumns(specs: readonly Spec[], prefix = ''): string[] {
  return specs.flatMap((spec) =>
    spec.questions.flatMap((q) => {
      const name = labelColumn(spec, q.name, specs.length > 1, prefix)
      return [name, ...SUFFIXES.map((s) => name + s)]
    }),
  )
}

/**
 * Opens an answers file, written beside `file` and put in place by `close`. Each row gets, per question, its label and
 * `.p`, `.margin`, `.route` columns, named `question` or, when several judgments are written, `judgment.question`,
 * each after `prefix`.
 */
export function openAnswersWriter(file: string, specs: readonly Spec[], prefix = ''): AnswersWriter {
  const out = openReplacement(file)
  const csv = formatOf(file) === 'csv'
  const delimiter = delimiterOf(file)
  const pending = new Map<number, Record<string, unknown>>()
  let next = 0
  let columns: string[] | null = null
  const flat = (row: Row, results: ReadonlyMap<string, SpecResult>) => {
    const record: Record<string, unknown> = { ...row }
    for (const spec of specs) {
      for (const [q, a] of Object.entries(results.get(spec.name)!.answers)) {
        const name = labelColumn(spec, q, specs.length > 1, prefix)
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
    close: () => out.place(),
    discard: () => out.discard(),
  }
}
