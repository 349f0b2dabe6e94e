import { delimitedLine } from '../../adapters/files/delimiter.ts'
import { readRows } from '../../adapters/files/local-files.ts'
import { createFile } from '../../adapters/files/safe-write.ts'
import { labelProblem, labelQuestion, type LabelQuestion } from '../../core/spec/starter-label.ts'
import { yamlText } from '../../core/spec/starter.ts'
import { UsageError } from '../../errors.ts'

/** How init reads the data file. */
export interface DataRead {
  readonly file: string
  readonly label: string
  readonly delimiter: string | null
  readonly columns: readonly string[] | null
}

/** An answer key read off a label column: one line per state, and the states left out for giving two labels. */
export interface LabelKey {
  readonly question: LabelQuestion
  readonly lines: readonly (readonly string[])[]
  readonly contradicted: number
}

/**
 * Reads a label column through the whole data file: its values become the first question's labels,
 * and each state with its label a line of the answer key. A state given two labels is left out.
 * Returns null, or throws when the column was asked for by `--label`, when the values cannot be labels.
 */
export async function readLabelKey(
  read: DataRead,
  column: string,
  state: readonly string[],
  asked: boolean,
): Promise<LabelKey | null> {
  const byState = new Map<string, { cells: string[]; label: string | null }>()
  const labels = new Set<string>()
  for await (const { row } of readRows(read.file, read.label, read.delimiter, read.columns)) {
    const label = String(row[column] ?? '').trim()
    if (label === '') continue
    labels.add(label)
    const cells = state.map((c) => String(row[c] ?? ''))
    const id = JSON.stringify(cells)
    const earlier = byState.get(id)
    if (earlier === undefined) byState.set(id, { cells, label })
    else if (earlier.label !== label) earlier.label = null
  }
  const problem = labelProblem(column, [...labels])
  if (problem !== null) {
    if (asked) throw new UsageError(`${read.label}: --label ${column}: ${problem}`)
    return null
  }
  const kept = [...byState.values()].filter((e) => e.label !== null)
  return {
    question: labelQuestion(column, [...labels], yamlText),
    lines: kept.map((e) => [...e.cells, e.label!]),
    contradicted: byState.size - kept.length,
  }
}

/** Writes the answer key (CSV: the state columns and the question) whole, never over any entry of its name. */
export async function writeLabelKey(file: string, state: readonly string[], key: LabelKey): Promise<void> {
  const text = [[...state, key.question.name], ...key.lines].map((cells) => delimitedLine(cells, ',')).join('')
  if (!(await createFile(file, text))) throw new UsageError(`${file} already exists; init never overwrites a file`)
}
