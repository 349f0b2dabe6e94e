import { readConfig, workersOf } from '../../config.ts'
import { serveUntil } from '../../http/server.ts'
import { serveAll } from '../../http/workers.ts'
import { helpText } from '../args.ts'
import { defineCommand } from '../command.ts'

/** The options `judge serve` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { workers: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } as const

/** `judge serve`: the HTTP server, as `node src/main.ts`. */
export const HELP = helpText(
  'judge serve',
  'Serves the specs under JUDGE_PROJECTS (default: the working folder) over HTTP on HOST:PORT\n' +
    '(default 127.0.0.1:8080) until SIGTERM or SIGINT. See docs/http-api.md and docs/deploy.md.',
  [
    {
      flag: '--workers N',
      text: 'server processes sharing the port, or auto for one per core (default JUDGE_WORKERS, else 1)',
    },
    { flag: '--help, -h', text: 'show this help' },
  ],
)

/** Runs `judge serve` until the CLI's signal aborts; returns the exit status. */
export const serveCommand = defineCommand('serve', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (positionals.length > 0) {
    io.stderr.write(`judge serve: takes no paths (got ${positionals.join(' ')}); set JUDGE_PROJECTS\n`)
    return 2
  }
  // Unlike `npm start`, which shows the examples, the CLI serves the folder it is run in.
  const read = readConfig(io.env, io.cwd)
  const config = values.workers === undefined ? read : { ...read, workers: workersOf(values.workers, '--workers') }
  // Without a signal (a caller that never stops it) the server runs for the life of the process.
  const signal = io.signal ?? new AbortController().signal
  const serveIo = { log: (line: string) => io.stderr.write(`${line}\n`), signal }
  // Worker processes build their own adapters from the configuration; one process takes the caller's.
  if (config.workers > 1) return serveAll(config, serveIo)
  await serveUntil(config, serveIo, options)
  return 0
})
