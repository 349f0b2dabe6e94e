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

// The fields of an answer written after its label, each to the label's column name and `.field`.
const SUFFIXES = ['p', 'margin', 'route'] as const

/** The columns of one question's answers: its label's, then one per suffix. */
interface QuestionColumns {
  readonly spec: string
  readonly question: string
  readonly label: string
  readonly suffixed: readonly (readonly [(typeof SUFFIXES)[number], string])[]
}

/**
 * The columns of every question, in order: the label column is `question` or, when several judgments are written,
 * `judgment.question`, after `prefix`.
 */
function questionColumns(specs: readonly Spec[], prefix: string): QuestionColumns[] {
  return specs.flatMap((spec) =>
    spec.questions.map((q) => {
      const label = prefix + (specs.length > 1 ? `${spec.name}.${q.name}` : q.name)
      const suffixed = SUFFIXES.map((s) => [s, `${label}.${s}`] as const)
      return { spec: spec.name, question: q.name, label, suffixed }
    }),
  )
}

/** Every column the answers add to a row: per question its label, `.p`, `.margin` and `.route`. */
export function answerColumns(specs: readonly Spec[], prefix = ''): string[] {
  return questionColumns(specs, prefix).flatMap((c) => [c.label, ...c.suffixed.map(([, column]) => column)])
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
  const named = questionColumns(specs, prefix)
  const flat = (row: Row, results: ReadonlyMap<string, SpecResult>) => {
    const record: Record<string, unknown> = { ...row }
    for (const c of named) {
      const answer = results.get(c.spec)!.answers[c.question]
      record[c.label] = answer.label
      for (const [field, column] of c.suffixed) record[column] = answer[field]
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
