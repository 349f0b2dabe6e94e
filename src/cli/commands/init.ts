import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { parseDelimiter } from '../../adapters/files/delimiter.ts'
import { readHeader, type Header } from '../../adapters/files/header.ts'
import { createFile, nameTaken } from '../../adapters/files/safe-write.ts'
import { headerlessReason, suggestedColumns } from '../../core/spec/header-guess.ts'
import { parseSpec } from '../../core/spec/spec-parse.ts'
import { judgmentNameOf, starterSpec, type Starter } from '../../core/spec/starter.ts'
import { UsageError } from '../../errors.ts'
import { helpText } from '../args.ts'
import { shellWord, typedPath } from '../invocation.ts'
import { defineCommand } from '../command.ts'
import type { CliIo } from '../io.ts'
import { chooseColumns } from './init-columns.ts'
import { readLabelKey, writeLabelKey } from './init-label.ts'

/** The options `judge init` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  delimiter: { type: 'string' },
  label: { type: 'string' },
  state: { type: 'string' },
  columns: { type: 'string' },
  header: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const

/** `judge init`: a starter spec for a data file. */
export const HELP = helpText(
  'judge init [data-file] [--label COLUMN] [--state A,B] [--columns A,B] [--header] [--delimiter C] [--json]',
  'Reads the header of a CSV, TSV (.tsv) or JSON Lines data file and writes a commented starter spec\n' +
    'beside it, <name>.judge.yaml: the columns as the state (identifiers and answer-like columns left\n' +
    'out), one question of each type to edit, routing with act:, and where an answer key goes. Asks\n' +
    'nothing and never overwrites a file. Then prints the next commands: plan, run, serve.\n' +
    'A label column (--label, or one named like label or class) becomes the first question, its\n' +
    'values the labels (a scale when they have an order: low, medium, high), and an answer key\n' +
    '<name>.key.csv, so that judge test scores it at once. A column whose values look like labels\n' +
    '(a few short values that repeat) is never put into the state: the one such column becomes the\n' +
    'label column, and several stop init to ask for --label or --state.\n' +
    'A first line that reads as a row, not a header, stops init: name the columns with --columns.\n' +
    'Without a data file it writes starter.judge.yaml and a small starter.csv to try it on.',
  [
    {
      flag: '--label COLUMN',
      text:
        'the column holding the right answers: the first question and the answer key (default: ' +
        'a column named label, class, category, target, …; else the one column whose values look like labels)',
    },
    { flag: '--state A,B', text: 'the columns the engine sees (default: every column but identifiers and answers)' },
    {
      flag: '--columns A,B',
      text: 'the data file has no header line: these name its columns, in order (written as columns:)',
    },
    { flag: '--header', text: 'the first line is the header, even where it reads like a row' },
    { flag: '--delimiter C', text: "the data file's cell separator: one character, or tab (default: by extension)" },
    { flag: '--json', text: 'machine-readable output on stdout' },
    { flag: '--help, -h', text: 'show this help' },
  ],
)

// Rows to try the starter spec on when no data file is given.
const SAMPLE =
  'text\nMy order arrived broken and I want a refund today\nCould you send me the invoice for March?\nThanks ' +
  'for the quick help yesterday!\n'

/** What init wrote, and how the data file is read. */
interface Written {
  readonly spec: string
  readonly data: string
  readonly starter: Starter
  /** The answer key written from the label column, or null. */
  readonly key: {
    readonly file: string
    readonly question: string
    readonly type: string
    readonly labels: readonly string[]
    readonly states: number
    readonly contradicted: number
  } | null
  /** What init chose on its own, to be said: a label column taken by its values, label-like columns kept. */
  readonly notes?: readonly string[]
}

/** The flags that say how the data file is read and which column holds the answers. */
interface DataFlags {
  readonly delimiter: string | null
  readonly label?: string
  readonly state?: string
  readonly columns?: string
  readonly header: boolean
}

/** Runs `judge init`; returns the exit status. */
export const initCommand = defineCommand('init', OPTIONS, HELP, async ({ values, positionals }, io) => {
  if (positionals.length > 1)
    throw new UsageError(`expected at most one data file, got ${positionals.join(' ')}; see judge init --help`)
  const given = values.delimiter === undefined ? null : parseDelimiter(values.delimiter)
  if (positionals.length === 0 && [values.label, values.state, values.columns].some((v) => v !== undefined))
    throw new UsageError('--label, --state and --columns read a data file: give one (judge init FILE)')
  const written =
    positionals.length === 1 ? await forData(io, positionals[0], { ...values, delimiter: given }) : await forSample(io)
  const next = nextCommands(io, written)
  if (values.json) {
    const { state, left } = written.starter
    const key = written.key === null ? null : { ...written.key, file: shown(io, written.key.file) }
    const notes = written.notes ?? []
    io.stdout.write(
      JSON.stringify(
        { spec: shown(io, written.spec), data: shown(io, written.data), state, left_out: left, key, notes, next },
        null,
        2,
      ) + '\n',
    )
  } else io.stdout.write(report(io, written, next))
  return 0
})

async function forData(io: CliIo, given: string, flags: DataFlags): Promise<Written> {
  const data = resolve(io.cwd, given)
  const header = await readHeader(data, given, flags.delimiter)
  const columns = columnsOf(given, header, flags)
  const names = columns ?? header.columns
  const name = judgmentNameOf(basename(data))
  const spec = join(dirname(data), `${name}.judge.yaml`)
  const read = { file: data, label: given, delimiter: header.delimiter, columns }
  const choice = await chooseColumns(read, names, flags)
  const column = choice.label
  const keyFile = join(dirname(data), `${name}.key.csv`)
  if (column !== null && nameTaken(keyFile))
    throw new UsageError(
      `${shown(io, keyFile)} already exists; init never overwrites a file: move it, or edit ${shown(io, spec)} by hand`,
    )
  const key = column === null ? null : await readLabelKey(read, column, choice.keyState, flags.label !== undefined)
  const label = key === null ? null : { question: key.question, key: basename(keyFile) }
  const extra = { label, delimiter: header.delimiter, columns, state: choice.state }
  const starter = starterSpec(name, names, basename(data), extra)
  await writeNew(spec, starter.text, specExists(io, spec), () => parseSpec(starter.text, spec))
  if (key !== null) await writeLabelKey(keyFile, starter.state, key)
  const written =
    key === null
      ? null
      : {
          file: keyFile,
          question: key.question.name,
          type: key.question.type,
          labels: key.question.labels,
          states: key.lines.length,
          contradicted: key.contradicted,
        }
  return { spec, data, starter, key: written, notes: choice.notes }
}

/**
 * The data file's column names when it has no header line (--columns); a first line that reads as a row stops init
 * unless --header says it is one.
 */
function columnsOf(given: string, header: Header, flags: DataFlags): string[] | null {
  if (flags.columns !== undefined) {
    const names = flags.columns.split(',').map((c) => c.trim())
    if (names.some((c) => c === '') || new Set(names).size !== names.length)
      throw new UsageError(
        `--columns must be distinct column names separated by commas, not ${JSON.stringify(flags.columns)}`,
      )
    if (names.length !== header.columns.length)
      throw new UsageError(
        `--columns names ${names.length} columns; the first line of ${given} has ${header.columns.length}`,
      )
    return names
  }
  const why = header.delimiter === null || flags.header ? null : headerlessReason(header.columns, header.sample)
  if (why === null) return null
  const suggested = suggestedColumns(header.columns, header.sample).join(',')
  throw new UsageError(
    `${given} has no header line: its first line reads as a row (${why}). Name its columns with --columns, ` +
      `e.g. judge init ${shellWord(given)} --columns ${suggested}; or give --header if that line is the header`,
  )
}

async function forSample(io: CliIo): Promise<Written> {
  const spec = resolve(io.cwd, 'starter.judge.yaml')
  const data = resolve(io.cwd, 'starter.csv')
  const starter = starterSpec('starter', ['text'], 'starter.csv')
  const exists =
    `${shown(io, data)} already exists; init never overwrites a file: ` +
    `give it as the data file (judge init ${shown(io, data)}) or move it`
  if (nameTaken(data)) throw new UsageError(exists)
  await writeNew(spec, starter.text, specExists(io, spec), () => parseSpec(starter.text, spec))
  await writeNew(data, SAMPLE, exists)
  return { spec, data, starter, key: null }
}

/** What init says of a spec that is there already. */
function specExists(io: CliIo, file: string): string {
  return `${shown(io, file)} already exists; init never overwrites a spec: edit it, or remove it and run init again`
}

/**
 * Writes a file that must not exist yet, whole, after checking its text: any entry of that name, a dangling symlink
 * too, is the UsageError `exists`.
 */
async function writeNew(file: string, text: string, exists: string, check: () => unknown = () => {}): Promise<void> {
  if (!nameTaken(file)) {
    check()
    if (await createFile(file, text)) return
  }
  throw new UsageError(exists)
}

/** The next commands, as the user can type them from where they ran init. */
function nextCommands(io: CliIo, written: Written): string[] {
  const judge = io.program ?? 'judge'
  const spec = shellWord(shown(io, written.spec))
  const dir = relative(io.cwd, dirname(written.spec))
  const projects =
    dir.startsWith('..') || isAbsolute(dir) ? `JUDGE_PROJECTS=${shellWord(shown(io, dirname(written.spec)))} ` : ''
  return [
    `${judge} plan ${spec}`,
    `ENGINE=simulated ${judge} run ${spec}`,
    ...(written.key === null ? [] : [`ENGINE=simulated ${judge} test ${spec}`]),
    `${projects}ENGINE=simulated ${judge} serve`,
  ]
}

function report(io: CliIo, written: Written, next: readonly string[]): string {
  const { state, left, questions } = written.starter
  const lines = [
    `wrote ${shown(io, written.spec)} for ${shown(io, written.data)}: state [${state.join(', ')}]; ` +
      `questions ${questions.slice(0, -1).join(', ')} and ${questions.at(-1)} to edit`,
    ...(written.notes ?? []).map((note) => `  ${note}`),
  ]
  for (const l of left) lines.push(`  left out of the state: ${l.column} (${l.why})`)
  if (written.key !== null) lines.push(keyLine(io, written.key), `  ${typeLine(written.key)}`)
  lines.push('', 'next:', ...next.map((command) => `  ${command}`), '')
  lines.push(
    'plan asks nothing. ENGINE=simulated answers from the text with no key and spends nothing; leave it out and set',
  )
  lines.push('ENGINE_API_KEY to ask System One. serve shows the review queue and the runs on http://127.0.0.1:8080.')
  return lines.join('\n') + '\n'
}

function keyLine(io: CliIo, key: NonNullable<Written['key']>): string {
  const left = key.contradicted === 0 ? '' : `; ${key.contradicted} left out for giving one state two labels`
  return (
    `wrote ${shown(io, key.file)}: the right ${key.question} of ${key.states} states${left}; ` +
    'judge test scores the answers against it'
  )
}

/** How the label column's question takes its values: a scale in their order, or a choice that has none. */
function typeLine(key: NonNullable<Written['key']>): string {
  const values = key.labels.join(', ')
  if (key.type === 'scale') return `${key.question}: a scale, its values ordered low -> high: ${values}`
  if (key.type === 'yes_no') return `${key.question}: a yes/no question`
  return (
    `${key.question}: a choice, its values in no order judge knows (${values}); if they have one, ` +
    'make it type: scale with the labels listed low -> high'
  )
}

/** A path as the user would type it from the working folder. */
function shown(io: CliIo, path: string): string {
  return typedPath(io.cwd, path)
}
