import type { ParseArgsConfig } from 'node:util'
import type { RuntimeOptions } from '../runtime.ts'
import { parseCommand } from './args.ts'
import type { CliIo } from './io.ts'

/** The options a command may parse: each with `--help` among them. */
type Options = NonNullable<ParseArgsConfig['options']> & { readonly help: { readonly type: 'boolean' } }

/** A command's arguments as parsed by its options. */
export type Args<O extends Options> = ReturnType<typeof parseCommand<O>>

/** A command as the CLI runs it: from its raw arguments to an exit status, and its help text. */
export interface Command {
  run(argv: readonly string[], io: CliIo, options: RuntimeOptions): Promise<number>
  readonly help: string
}

/**
 * A command from its name, options, help and work: the arguments are parsed strictly by the
 * options (a bad one is a UsageError naming the command), and `--help` prints the help and exits
 * 0 before any work, so that every command opens the same way and none repeats the opening.
 */
export function defineCommand<O extends Options>(
  name: string,
  options: O,
  help: string,
  work: (args: Args<O>, io: CliIo, options: RuntimeOptions) => Promise<number>,
): Command {
  return {
    help,
    async run(argv, io, runtime) {
      const args = parseCommand(name, argv, options)
      if ((args.values as { readonly help?: boolean }).help) {
        io.stdout.write(help)
        return 0
      }
      return work(args, io, runtime)
    },
  }
}
