import { JUDGMENT_NAME } from './spec-parse.ts'
import type { LabelQuestion } from './starter-label.ts'
import { placeholderQuestions } from './starter-questions.ts'

/** A column of the data left out of a starter spec's state, and why. */
export interface LeftOut {
  readonly column: string
  readonly why: string
}

/** A starter spec: its YAML text, and the columns its state takes and leaves out. */
export interface Starter {
  readonly text: string
  readonly state: readonly string[]
  readonly left: readonly LeftOut[]
  /** The questions, in order: the label column's first, then one of each type to edit. */
  readonly questions: readonly string[]
}

// Identifiers make every row a state of its own, so nothing is ever answered from the store.
const ID = /^(id|_id|uuid|guid|index|row|rownum|row_number|.*[_ -]id)$/i
// An answer already in the data belongs in an answer key, not in what the engine is shown.
const ANSWER = /^(label|labels|class|category|target|answer|truth|gold|y|is_spam|spam)$/i
// `other.question` in a state names another judgment's answer.
const REFERENCE = /^[a-z0-9_-]+\.[a-z0-9_]+$/

/** The judgment name a data file suggests: `Customer Mail.csv` -> `customer-mail`. */
export function judgmentNameOf(base: string): string {
  const name = base
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return JUDGMENT_NAME.test(name) && name !== '__proto__' ? name : 'judgment'
}

/** What a starter spec says beyond the columns: a label column's question, and how the data file is read. */
export interface StarterExtra {
  /** The first question, from the data's label column; its key file's name. */
  readonly label?: { readonly question: LabelQuestion; readonly key: string } | null
  /** The data file's cell separator (`delimiter:`); null for JSON Lines. */
  readonly delimiter?: string | null
  /** The data file's column names when it has no header line (`columns:`). */
  readonly columns?: readonly string[] | null
  /** The state columns, when chosen rather than guessed: every other column is left out. */
  readonly state?: readonly string[] | null
}

const ANSWERS = "it holds the answers: they are the answer key (key:) and the first question's labels"
// A row read from a file is an object: a column of this name would set its prototype, not a value.
const UNREADABLE = 'the name __proto__ cannot be read from a row: rename the column to put it in the state'

/** The answer column the starter spec makes a question of: `--label`'s, else the first answer-like column. */
export function answerColumn(columns: readonly string[]): string | null {
  return columns.find((c) => ANSWER.test(c)) ?? null
}

/** Whether a column can be in the state by its name: not unnamed, an identifier, an answer, or a reference. */
export function ordinaryColumn(column: string): boolean {
  return column !== '' && column !== '__proto__' && !REFERENCE.test(column) && !ID.test(column) && !ANSWER.test(column)
}

/**
 * Splits a header into the state columns and those left out (identifiers, answers, unusable names); never an empty
 * state.
 */
export function stateColumns(
  columns: readonly string[],
  label: string | null = null,
): { state: string[]; left: LeftOut[] } {
  const state: string[] = []
  const left: LeftOut[] = []
  for (const column of new Set(columns)) {
    if (column === label) left.push({ column, why: ANSWERS })
    else if (column === '')
      left.push({ column: '(unnamed)', why: 'a column without a name cannot be part of the state' })
    else if (column === '__proto__') left.push({ column, why: UNREADABLE })
    else if (REFERENCE.test(column))
      left.push({ column, why: "a state entry with a dot names another judgment's answer" })
    else if (ID.test(column))
      left.push({ column, why: 'an identifier makes every row a new state, so nothing is answered from the store' })
    else if (ANSWER.test(column))
      left.push({ column, why: 'it looks like an answer, which belongs in an answer key (key:)' })
    else state.push(column)
  }
  if (state.length > 0) return { state, left }
  const unusable = (column: string) => column === '(unnamed)' || column === '__proto__' || REFERENCE.test(column)
  const usable = left.filter((l) => !unusable(l.column)).map((l) => l.column)
  return { state: usable.length > 0 ? usable : ['text'], left: left.filter((l) => !usable.includes(l.column)) }
}

/**
 * Writes a commented starter spec for a data file's columns: one question of each type to edit (after the label
 * column's, when there is one), routing, and the answer key.
 */
export function starterSpec(
  name: string,
  columns: readonly string[],
  data: string | null,
  extra: StarterExtra = {},
): Starter {
  const label = extra.label ?? null
  const { state, left } = chosenState(columns, label?.question.column ?? null, extra.state ?? null)
  const leftNote = left.map((l) => `#   ${l.column}: ${l.why}\n`).join('')
  const placeholders = placeholderQuestions(columns, label?.question.name ?? null)
  const key =
    label === null
      ? `# An answer key for \`judge test\`: a CSV (or .tsv) file of the state columns and one column per
# question holding the right label. Uncomment once the file exists:
# key: ${name}.key.csv
`
      : `# The answer key for \`judge test\`, written from the column ${yamlText(label.question.column)}: \
the state columns and the right label.
key: ${yamlText(label.key)}
`
  const dataLine = data === null ? '# data: rows.csv' : `data: ${yamlText(data)}`
  const text = `# A starter spec written by \`judge init\`: edit the questions, then plan and run it.
# Every key is described in docs/spec-format.md.
name: ${name}
# The columns the engine sees: rows with the same values share one answer in the store.
state: [${state.map(yamlText).join(', ')}]
${left.length > 0 ? `# Left out of the state:\n${leftNote}` : ''}questions:
${label?.question.yaml ?? ''}  # One question of each type. Rename them (a-z, 0-9, _) and reword them for your data;
  # a question's wording is part of its cache key, so an edit asks it again.
${placeholders.yaml}${placeholders.act}${key}${dataLine}
${dataFormat(extra)}# Answers whose margin is below this are offered for review as unsure.
unsure_below: 0.2
`
  const questions = [...(label === null ? [] : [label.question.name]), ...placeholders.names]
  return { text, state, left, questions }
}

/** The state columns given, every other column left out; else the columns split by their names (stateColumns). */
function chosenState(
  columns: readonly string[],
  label: string | null,
  chosen: readonly string[] | null,
): { state: string[]; left: LeftOut[] } {
  if (chosen === null) return stateColumns(columns, label)
  const left = columns
    .filter((c) => !chosen.includes(c))
    .map((column) =>
      column === label
        ? { column, why: ANSWERS }
        : { column: column === '' ? '(unnamed)' : column, why: 'not among the state columns asked for' },
    )
  return { state: [...chosen], left }
}

/** The delimiter: and columns: lines of a starter spec. */
function dataFormat(extra: StarterExtra): string {
  const delimiter =
    extra.delimiter === undefined || extra.delimiter === null
      ? ''
      : `delimiter: ${extra.delimiter === '\t' ? 'tab' : JSON.stringify(extra.delimiter)}   # the data file's ` +
        `cell separator\n`
  const columns = extra.columns
    ? `# The data file has no header line: these name its columns, in order.\ncolumns: ` +
      `[${extra.columns.map(yamlText).join(', ')}]\n`
    : ''
  return delimiter + columns
}

/** A YAML scalar: plain when that reads the same, else double-quoted. */
export function yamlText(value: string): string {
  return /^[A-Za-z_][\w./-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~)$/i.test(value)
    ? value
    : JSON.stringify(value)
}
