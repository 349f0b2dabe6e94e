import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from '../errors.ts'

/** The option set shared by the commands that read a spec path. */
export const COMMON_OPTIONS = {
  node: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options']

/** One documented option of a command, for its --help text. */
export interface OptionDoc {
  readonly flag: string
  readonly text: string
}

/** The common options' help lines. */
export const COMMON_DOCS: readonly OptionDoc[] = [
  { flag: '--node NAME', text: 'only this judgment of a folder of specs' },
  { flag: '--json', text: 'machine-readable output on stdout' },
  { flag: '--help, -h', text: 'show this help' },
]

/** The help lines of the options naming a data file. */
export const DATA_DOCS: readonly OptionDoc[] = [
  { flag: '--data FILE', text: "CSV or TSV (.tsv) with a header, or JSON Lines rows; default the spec's data:" },
  { flag: '--delimiter C', text: "the data file's cell separator: one character, or tab (default: by extension)" },
]

/** Parses a command's arguments strictly: an unknown flag or a missing value is a UsageError. */
export function parseCommand<O extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: readonly string[],
  options: O,
) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.replace(/\. To specify a positional.*$/s, '')}; see judge ${command} --help`,
    )
  }
}

/** Formats a command's help text. */
export function helpText(usage: string, summary: string, docs: readonly OptionDoc[]): string {
  const width = Math.max(...docs.map((d) => d.flag.length))
  const lines = docs.map((d) => `  ${d.flag.padEnd(width)}  ${d.text}`)
  return `usage: ${usage}\n\n${summary}\n\noptions:\n${lines.join('\n')}\n`
}

/** Reads a positive whole number option, or the default. */
export function positiveInt(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} must be a whole number of 1 or more, not "${raw}"`)
  return n
}

/** The one positional path a command takes. */
export function onePath(command: string, positionals: readonly string[]): string {
  if (positionals.length !== 1) {
    throw new UsageError(
      `expected one spec file or folder, got ${positionals.length === 0 ? 'none' : positionals.join(' ')}; ` +
        `see judge ${command} --help`,
    )
  }
  return positionals[0]
}
