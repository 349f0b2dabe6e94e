import { readFile } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import type { AnswerKey, KeyRow } from '../../core/review/verdicts.ts'
import { stateHash, stateOf } from '../../core/judge/state.ts'
import type { Spec } from '../../core/types.ts'
import { InputError } from '../../errors.ts'
import { parsedTexts } from './parsed-texts.ts'
import { delimitedName, delimiterOf, parseOptions } from './delimiter.ts'

type Cells = { readonly [column: string]: string }
interface Parsed {
  readonly record: Cells
  readonly info: { readonly lines: number }
}

/**
 * Reads a judgment's answer key: a CSV file (TSV for .tsv) with the spec's state columns and one column per
 * question it gives labels for (other columns are ignored). An empty cell gives no label. Rows with
 * the same state merge; two different labels for one question of one state are an error.
 */
export async function readKey(spec: Spec, file: string): Promise<AnswerKey> {
  // A server reads the key on every request: the text is read again, but parsed only when it changed.
  return parsedKeys.get(`${spec.hash}\0${file}`, await readText(file, spec), (text) => keyOf(spec, file, text))
}

/** Keys parsed lately, by spec hash and file. */
const parsedKeys = parsedTexts<AnswerKey>(16)

function keyOf(spec: Spec, file: string, text: string): AnswerKey {
  const parsed = parseKey(text, file)
  const columns = parsed.length > 0 ? Object.keys(parsed[0].record) : []
  if (parsed.length > 0 && !spec.questions.some((q) => columns.includes(q.name))) {
    throw new InputError(
      `${file}: the answer key has no column for any question of ${spec.name} ` +
        `(${spec.questions.map((q) => q.name).join(', ')})`,
    )
  }
  const key = new Map<string, KeyRow>()
  for (const { record, info } of parsed) {
    const where = `${file}:${info.lines}`
    const state = stateOf(record, spec.state, where)
    const row: KeyRow = { stateHash: stateHash(state), state, labels: labelsOf(spec, record, where), where }
    const earlier = key.get(row.stateHash)
    key.set(row.stateHash, earlier ? merged(earlier, row) : row)
  }
  return key
}

async function readText(file: string, spec: Spec): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EISDIR'
          ? 'is a folder'
          : `cannot be read (${code ?? String(error)})`
    throw new InputError(`${file}: the answer key named by ${spec.file} ${why}`, { cause: error })
  }
}

function parseKey(text: string, file: string): Parsed[] {
  const delimiter = delimiterOf(file)
  try {
    return parse(text, {
      ...parseOptions(delimiter),
      columns: true,
      bom: true,
      skip_empty_lines: true,
      info: true,
    }) as Parsed[]
  } catch (error) {
    const e = error as Error & { lines?: number }
    throw new InputError(
      `${file}${e.lines ? `:${e.lines}` : ''}: not valid ${delimitedName(delimiter)}: ${e.message}`,
      { cause: error },
    )
  }
}

function labelsOf(spec: Spec, record: Cells, where: string): { [question: string]: string } {
  const labels: { [question: string]: string } = {}
  for (const question of spec.questions) {
    if (!Object.hasOwn(record, question.name)) continue
    // Spreadsheets leave stray spaces around cells; a spec label never starts or ends with one.
    const cell = record[question.name].trim()
    if (cell === '') continue
    if (!question.labels.includes(cell)) {
      throw new InputError(
        `${where}: column "${question.name}": "${cell}" is not a label of question ${question.name} ` +
          `(${question.labels.join(', ')})`,
      )
    }
    labels[question.name] = cell
  }
  return labels
}

function merged(earlier: KeyRow, row: KeyRow): KeyRow {
  for (const [question, label] of Object.entries(row.labels)) {
    const before = earlier.labels[question]
    if (before !== undefined && before !== label) {
      throw new InputError(
        `${row.where}: column "${question}": "${label}" contradicts "${before}" given for the same state ` +
          `at ${earlier.where}`,
      )
    }
  }
  return { ...earlier, labels: { ...earlier.labels, ...row.labels } }
}
