import { CostCapError, JudgeError } from '../errors.ts'
import { lazy } from '../lazy.ts'
import { planTable } from './shared.ts'
import type { RuntimeOptions } from '../runtime.ts'
import { packageInfo } from '../version.ts'
import { cliErrorText } from './error-text.ts'
import type { CliIo } from './io.ts'
import { closest } from './suggest.ts'
import type { Command } from './command.ts'

// A command's module is loaded when it is run (src/lazy.ts), so that a command loads only what it uses.
const commands = {
  init: lazy<typeof import('./commands/init.ts')>(import.meta.url, './commands/init.ts'),
  run: lazy<typeof import('./commands/run.ts')>(import.meta.url, './commands/run.ts'),
  plan: lazy<typeof import('./commands/plan.ts')>(import.meta.url, './commands/plan.ts'),
  runs: lazy<typeof import('./commands/runs.ts')>(import.meta.url, './commands/runs.ts'),
  batches: lazy<typeof import('./commands/batches.ts')>(import.meta.url, './commands/batches.ts'),
  drift: lazy<typeof import('./commands/drift.ts')>(import.meta.url, './commands/drift.ts'),
  test: lazy<typeof import('./commands/test.ts')>(import.meta.url, './commands/test.ts'),
  cache: lazy<typeof import('./commands/cache.ts')>(import.meta.url, './commands/cache.ts'),
  calibrate: lazy<typeof import('./commands/calibrate.ts')>(import.meta.url, './commands/calibrate.ts'),
  stability: lazy<typeof import('./commands/stability.ts')>(import.meta.url, './commands/stability.ts'),
  forget: lazy<typeof import('./commands/forget.ts')>(import.meta.url, './commands/forget.ts'),
  replay: lazy<typeof import('./commands/replay.ts')>(import.meta.url, './commands/replay.ts'),
  compare: lazy<typeof import('./commands/compare.ts')>(import.meta.url, './commands/compare.ts'),
  models: lazy<typeof import('./commands/models.ts')>(import.meta.url, './commands/models.ts'),
  doctor: lazy<typeof import('./commands/doctor.ts')>(import.meta.url, './commands/doctor.ts'),
  serve: lazy<typeof import('./commands/serve.ts')>(import.meta.url, './commands/serve.ts'),
}

/** A command of the table: its one-line summary for `judge --help`, and how to load it. */
export interface CommandEntry {
  readonly summary: string
  /** The command, its module loaded on the first call (`judge run` loads no server). */
  load(): Command
}

/** Every command, with its one-line summary for `judge --help`. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  init: {
    summary: 'write a starter spec for a data file, and print the next commands',
    load: () => commands.init().initCommand,
  },
  run: {
    summary: 'judge every row of a data file, store first, and record a run',
    load: () => commands.run().runCommand,
  },
  plan: {
    summary: 'what run would ask and cost, asking nothing',
    load: () => commands.plan().planCommand,
  },
  runs: {
    summary: "the runs of a spec or folder, newest first; prune old runs' row lists",
    load: () => commands.runs().runsCommand,
  },
  batches: {
    summary: 'the batches of the bulk lane (run --batch), newest first; cancel one',
    load: () => commands.batches().batchesCommand,
  },
  drift: {
    summary: 'label mix per run and its change',
    load: () => commands.drift().driftCommand,
  },
  test: {
    summary: 'judge the answer key, store first, and score accuracy with the verdicts',
    load: () => commands.test().testCommand,
  },
  cache: {
    summary: 'answers per question wording and model; prune superseded wordings',
    load: () => commands.cache().cacheCommand,
  },
  calibrate: {
    summary: 'the lowest threshold of each act rule whose precision reaches a target',
    load: () => commands.calibrate().calibrateCommand,
  },
  stability: {
    summary: 'ask a sample of stored answers again, past the cache: how often labels and routes flip',
    load: () => commands.stability().stabilityCommand,
  },
  forget: {
    summary: "erase every copy judge keeps of rows' values, or what retain_days lets go",
    load: () => commands.forget().forgetCommand,
  },
  replay: {
    summary: 'try a candidate spec on the rows kept for a live judgment',
    load: () => commands.replay().replayCommand,
  },
  compare: {
    summary: 'is a candidate spec more accurate than the live one, and how sure: a paired comparison and a gate',
    load: () => commands.compare().compareCommand,
  },
  models: {
    summary: 'the models the engine lists, aliases marked, and the one each judgment uses',
    load: () => commands.models().modelsCommand,
  },
  doctor: {
    summary: 'check, spending nothing, what a first real run needs, and say what to fix',
    load: () => commands.doctor().doctorCommand,
  },
  serve: {
    summary: 'the HTTP server, as node src/main.ts',
    load: () => commands.serve().serveCommand,
  },
}

/** The top-level help text. */
export function mainHelp(): string {
  const names = Object.keys(COMMANDS)
  const width = Math.max(...names.map((n) => n.length))
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`)
  return (
    `usage: judge <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n` +
    "Run judge help <command> (or judge <command> --help) for a command's options; judge --version\n" +
    'for the version. Environment: see docs/configuration.md.\n'
  )
}

/**
 * Runs the CLI on its arguments and returns the exit status: 0 ok, 1 a failed run (or a test
 * below its bar), 2 a usage, spec, input, cost or key error. Errors are printed, never thrown.
 */
export async function runCli(argv: readonly string[], io: CliIo, options: RuntimeOptions = {}): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout.write(mainHelp())
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`${packageInfo().version}\n`)
    return 0
  }
  if (name === 'help') return help(rest, io)
  const entry = COMMANDS[name]
  if (!entry) return unknown(name, io)
  try {
    return await entry.load().run(rest, io, options)
  } catch (error) {
    return failed(name, error, wantsJson(rest), io)
  }
}

async function help(rest: readonly string[], io: CliIo): Promise<number> {
  const [topic] = rest
  if (topic === undefined) io.stdout.write(mainHelp())
  else if (COMMANDS[topic]) io.stdout.write(COMMANDS[topic].load().help)
  else return unknown(topic, io)
  return 0
}

function unknown(name: string, io: CliIo): number {
  const guess = closest(name, Object.keys(COMMANDS))
  const hint = guess ? `; did you mean "${guess}"?` : ''
  io.stderr.write(`judge: unknown command "${name}"${hint}\n\n${mainHelp()}`)
  return 2
}

/** Prints an error: the message on stderr, and with --json also `{"error": message}` on stdout. */
function failed(name: string, error: unknown, json: boolean, io: CliIo): number {
  if (!(error instanceof JudgeError)) {
    if (json)
      io.stdout.write(
        JSON.stringify({ error: `unexpected error: ${(error as Error)?.message ?? String(error)}` }) + '\n',
      )
    io.stderr.write(`judge ${name}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)
    return 1
  }
  // A cost refusal shows the plan it refused, so that the user sees what each judgment would ask.
  if (error instanceof CostCapError && Array.isArray(error.context.plans))
    io.stderr.write(planTable(error.context.plans, error.cap))
  const message = cliErrorText(error)
  if (json) io.stdout.write(JSON.stringify({ error: message }) + '\n')
  io.stderr.write(`judge ${name}: ${message}\n`)
  return error.exitCode
}

// Looked for in the raw arguments: an error may come before (or from) parsing them.
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--')
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json')
}
