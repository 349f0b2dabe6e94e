import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { delimiterOf, parseDelimiter, TAB } from '../../adapters/files/delimiter.ts'
import { readHeader } from '../../adapters/files/header.ts'
import { parseSpec } from '../../core/spec/spec-parse.ts'
import { judgmentNameOf, starterSpec, type Starter } from '../../core/spec/starter.ts'
import { UsageError } from '../../errors.ts'
import { helpText } from '../args.ts'
import { shellWord } from '../invocation.ts'
import { defineCommand } from '../command.ts'
import type { CliIo } from '../io.ts'

/** The options `judge init` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  delimiter: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const

/** `judge init`: a starter spec for a data file. */
export const HELP = helpText(
  'judge init [data-file] [--delimiter C] [--json]',
  'Reads the header of a CSV, TSV (.tsv) or JSON Lines data file and writes a commented starter spec\n' +
    'beside it, <name>.judge.yaml: the columns as the state (identifiers and answer-like columns left\n' +
    'out), one question of each type to edit, routing with act:, and where an answer key goes. Asks\n' +
    'nothing and never overwrites a file. Then prints the next three commands: plan, run, serve.\n' +
    'Without a data file it writes starter.judge.yaml and a small starter.csv to try it on.',
  [
    { flag: '--delimiter C', text: 'the data file\'s cell separator: one character, or tab (default: by extension)' },
    { flag: '--json', text: 'machine-readable output on stdout' },
    { flag: '--help, -h', text: 'show this help' },
  ],
)

// Rows to try the starter spec on when no data file is given.
const SAMPLE = 'text\nMy order arrived broken and I want a refund today\nCould you send me the invoice for March?\nThanks for the quick help yesterday!\n'

/** What init wrote, and how the data file is read. */
interface Written {
  readonly spec: string
  readonly data: string
  readonly starter: Starter
  /** A --delimiter the next commands need: the data file's separator differs from its extension's. */
  readonly delimiter: string | null
}

/** Runs `judge init`; returns the exit status. */
export const initCommand = defineCommand('init', OPTIONS, HELP, async ({ values, positionals }, io) => {
  if (positionals.length > 1) throw new UsageError(`expected at most one data file, got ${positionals.join(' ')}; see judge init --help`)
  const given = values.delimiter === undefined ? null : parseDelimiter(values.delimiter)
  const written = positionals.length === 1 ? await forData(io, positionals[0], given) : await forSample(io)
  const next = nextCommands(io, written)
  if (values.json) {
    const { state, left } = written.starter
    io.stdout.write(JSON.stringify({ spec: shown(io, written.spec), data: shown(io, written.data), state, left_out: left, next }, null, 2) + '\n')
  } else io.stdout.write(report(io, written, next))
  return 0
})

async function forData(io: CliIo, given: string, delimiter: string | null): Promise<Written> {
  const data = resolve(io.cwd, given)
  const header = await readHeader(data, given, delimiter)
  const name = judgmentNameOf(basename(data))
  const spec = join(dirname(data), `${name}.judge.yaml`)
  const starter = starterSpec(name, header.columns, basename(data))
  await writeNew(io, spec, starter.text, () => parseSpec(starter.text, spec))
  const needed = header.delimiter !== null && header.delimiter !== delimiterOf(data) ? header.delimiter : null
  return { spec, data, starter, delimiter: needed }
}

async function forSample(io: CliIo): Promise<Written> {
  const spec = resolve(io.cwd, 'starter.judge.yaml')
  const data = resolve(io.cwd, 'starter.csv')
  const starter = starterSpec('starter', ['text'], 'starter.csv')
  if (existsSync(data)) throw new UsageError(`${shown(io, data)} already exists; init never overwrites a file: give it as the data file (judge init ${shown(io, data)}) or move it`)
  await writeNew(io, spec, starter.text, () => parseSpec(starter.text, spec))
  await writeFile(data, SAMPLE, { flag: 'wx' })
  return { spec, data, starter, delimiter: null }
}

/** Writes a file that must not exist yet, after checking its text. */
async function writeNew(io: CliIo, file: string, text: string, check: () => unknown): Promise<void> {
  if (existsSync(file)) throw new UsageError(`${shown(io, file)} already exists; init never overwrites a spec: edit it, or remove it and run init again`)
  check()
  await writeFile(file, text, { flag: 'wx' })
}

/** The three next commands, as the user can type them from where they ran init. */
function nextCommands(io: CliIo, written: Written): string[] {
  const judge = io.program ?? 'judge'
  const spec = shellWord(shown(io, written.spec))
  const data = written.delimiter === null ? '' : ` --delimiter ${written.delimiter === TAB ? 'tab' : shellWord(written.delimiter)}`
  const dir = relative(io.cwd, dirname(written.spec))
  const projects = dir.startsWith('..') || isAbsolute(dir) ? `JUDGE_PROJECTS=${shellWord(dirname(written.spec))} ` : ''
  return [
    `${judge} plan ${spec}${data}`,
    `ENGINE=simulated ${judge} run ${spec}${data}`,
    `${projects}ENGINE=simulated ${judge} serve`,
  ]
}

function report(io: CliIo, written: Written, next: readonly string[]): string {
  const { state, left } = written.starter
  const lines = [`wrote ${shown(io, written.spec)} for ${shown(io, written.data)}: state [${state.join(', ')}]; questions relevant, topic and priority to edit`]
  for (const l of left) lines.push(`  left out of the state: ${l.column} (${l.why})`)
  lines.push('', 'next:', ...next.map((command) => `  ${command}`), '')
  lines.push('plan asks nothing. ENGINE=simulated answers from the text with no key and spends nothing; leave it out and set')
  lines.push('ENGINE_API_KEY to ask System One. serve shows the review queue and the runs on http://127.0.0.1:8080.')
  return lines.join('\n') + '\n'
}

/** A path as the user would type it from the working folder. */
function shown(io: CliIo, path: string): string {
  const rel = relative(io.cwd, path)
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
