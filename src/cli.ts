#!/usr/bin/env node
import './quiet-warnings.ts'
import { runCli } from './cli/run-cli.ts'
import { stopOnSignals } from './cli/signals.ts'
import { capYoungGeneration } from './young-generation.ts'

capYoungGeneration()

const stopper = stopOnSignals(process, (code) => process.exit(code), (line) => void process.stderr.write(line))

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stopper.signal,
})
stopper.dispose()
