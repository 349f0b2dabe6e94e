import { CostCapError, JudgeError } from '../errors.ts'
import { planTable } from './shared.ts'
import type { RuntimeOptions } from '../runtime.ts'
import { driftCommand } from './commands/drift.ts'
import { planCommand } from './commands/plan.ts'
import { replayCommand } from './commands/replay.ts'
import { runCommand } from './commands/run.ts'
import { runsCommand } from './commands/runs.ts'
import { serveCommand } from './commands/serve.ts'
import { testCommand } from './commands/test.ts'
import type { CliIo } from './io.ts'

type Command = (argv: readonly string[], io: CliIo, options: RuntimeOptions) => Promise<number>

/** Every command, with its one-line summary for `judge --help`. */
export const COMMANDS: Readonly<Record<string, { run: Command; summary: string }>> = {
  run: { run: runCommand, summary: 'judge every row of a data file, store first, and record a run' },
  plan: { run: planCommand, summary: 'what run would ask and cost, asking nothing' },
  runs: { run: runsCommand, summary: 'the runs of a spec or folder, newest first' },
  drift: { run: driftCommand, summary: 'label mix per run and its change' },
  test: { run: testCommand, summary: 'judge the answer key, store first, and score accuracy with the verdicts' },
  replay: { run: replayCommand, summary: 'try a candidate spec on the rows kept for a live judgment' },
  serve: { run: serveCommand, summary: 'the HTTP server, as node src/main.ts' },
}

/** The top-level help text. */
export function mainHelp(): string {
  const names = Object.keys(COMMANDS)
  const width = Math.max(...names.map((n) => n.length))
  const lines = names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`)
  return `usage: judge <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun judge <command> --help for a command's options. Environment: see docs/configuration.md.\n`
}

/**
 * Runs the CLI on its arguments and returns the exit status: 0 ok, 1 a failed run (or a test
 * below its bar), 2 a usage, spec, input, cost or key error. Errors are printed, never thrown.
 */
export async function runCli(argv: readonly string[], io: CliIo, options: RuntimeOptions = {}): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp())
    return name === undefined ? 2 : 0
  }
  const command = COMMANDS[name]
  if (!command) {
    io.stderr.write(`judge: unknown command "${name}"\n\n${mainHelp()}`)
    return 2
  }
  try {
    return await command.run(rest, io, options)
  } catch (error) {
    if (error instanceof JudgeError) {
      // A cost refusal shows the plan it refused, so that the user sees what each judgment would ask.
      if (error instanceof CostCapError && Array.isArray(error.context.plans)) io.stderr.write(planTable(error.context.plans, error.cap))
      io.stderr.write(`judge ${name}: ${error.message}\n`)
      return error.exitCode
    }
    io.stderr.write(`judge ${name}: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`)
    return 1
  }
}
