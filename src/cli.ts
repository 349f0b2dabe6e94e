#!/usr/bin/env node
import './quiet-warnings.ts'
import { runCli } from './cli/run-cli.ts'
import { capYoungGeneration } from './young-generation.ts'

capYoungGeneration()

const controller = new AbortController()
const stop = () => controller.abort()
process.once('SIGINT', stop)
process.once('SIGTERM', stop)

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
})
process.off('SIGINT', stop)
process.off('SIGTERM', stop)
