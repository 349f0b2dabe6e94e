#!/usr/bin/env node
import './quiet-warnings.ts'
import { invocation } from './cli/invocation.ts'
import { runCli } from './cli/run-cli.ts'
import { stopOnSignals } from './cli/signals.ts'
import { packageInfo } from './version.ts'
import { capYoungGeneration, limitOldGeneration } from './young-generation.ts'

// Memory limits for long batch commands; a server (judge serve) keeps V8's defaults, for speed.
if (process.argv[2] !== 'serve') {
  capYoungGeneration()
  limitOldGeneration()
}

const stopper = stopOnSignals(process, (code) => process.exit(code), (line) => void process.stderr.write(line))

const launch = { script: process.argv[1] ?? '', execPath: process.execPath, env: process.env, cwd: process.cwd(), packageName: packageInfo().name }
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stopper.signal,
  program: invocation(launch),
})
stopper.dispose()
