import { CostCapError, JudgeError } from '../errors.ts'
import { planTable } from './shared.ts'
import type { RuntimeOptions } from '../runtime.ts'
import { packageInfo } from '../version.ts'
import * as cache from './commands/cache.ts'
import * as calibrate from './commands/calibrate.ts'
import * as drift from './commands/drift.ts'
import * as init from './commands/init.ts'
import * as plan from './commands/plan.ts'
import * as replay from './commands/replay.ts'
import * as run from './commands/run.ts'
import * as runs from './commands/runs.ts'
import * as serve from './commands/serve.ts'
import * as test from './commands/test.ts'
import { cliErrorText } from './error-text.ts'
import type { CliIo } from './io.ts'
import { closest } from './suggest.ts'

type Command = (argv: readonly string[], io: CliIo, options: RuntimeOptions) => Promise<number>

/** Every command, with its one-line summary for `judge --help` and its own help text. */
export const COMMANDS: Readonly<Record<string, { run: Command; summary: string; help: string }>> = {
  init: { run: init.initCommand, help: init.HELP, summary: 'write a starter spec for a data file, and print the next commands' },
  run: { run: run.runCommand, help: run.HELP, summary: 'judge every row of a data file, store first, and record a run' },
  plan: { run: plan.planCommand, help: plan.HELP, summary: 'what run would ask and cost, asking nothing' },
  runs: { run: runs.runsCommand, help: runs.HELP, summary: 'the runs of a spec or folder, newest first; prune old runs\' row lists' },
  drift: { run: drift.driftCommand, help: drift.HELP, summary: 'label mix per run and its change' },
  test: { run: test.testCommand, help: test.HELP, summary: 'judge the answer key, store first, and score accuracy with the verdicts' },
  cache: { run: cache.cacheCommand, help: cache.HELP, summary: 'answers per question wording and model; prune superseded wordings' },
  calibrate: { run: calibrate.calibrateCommand, help: calibrate.HELP, summary: 'the lowest threshold of each act rule whose precision reaches a target' },
  replay: { run: replay.replayCommand, help: replay.HELP, summary: 'try a candidate spec on the rows kept for a live judgment' },
  serve: { run: serve.serveCommand, help: serve.HELP, summary: 'the HTTP server, as node src/main.ts' },
}

/** The top-level help text. */
export function mainHelp(): string {
  const names = Object.keys(COMMANDS)
  const width = Math.max(...names.map((n) => n.length))
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`)
  return `usage: judge <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n` +
    'Run judge help <command> (or judge <command> --help) for a command\'s options; judge --version\n' +
    'for the version. Environment: see docs/configuration.md.\n'
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
  const command = COMMANDS[name]
  if (!command) return unknown(name, io)
  try {
    return await command.run(rest, io, options)
  } catch (error) {
    return failed(name, error, wantsJson(rest), io)
  }
}

function help(rest: readonly string[], io: CliIo): number {
  const [topic] = rest
  if (topic === undefined) io.stdout.write(mainHelp())
  else if (COMMANDS[topic]) io.stdout.write(COMMANDS[topic].help)
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
    if (json) io.stdout.write(JSON.stringify({ error: `unexpected error: ${(error as Error)?.message ?? String(error)}` }) + '\n')
    io.stderr.write(`judge ${name}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)
    return 1
  }
  // A cost refusal shows the plan it refused, so that the user sees what each judgment would ask.
  if (error instanceof CostCapError && Array.isArray(error.context.plans)) io.stderr.write(planTable(error.context.plans, error.cap))
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
