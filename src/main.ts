#!/usr/bin/env node
import { readConfig } from './config.ts'
import { JudgeError } from './errors.ts'
import { DEFAULT_PROJECTS } from './http/server.ts'
import { serveAll } from './http/workers.ts'

// The HTTP server as a process: the environment is read here, once, and nowhere below.
const log = (line: string): void => void process.stderr.write(`${line}\n`)
const controller = new AbortController()
process.once('SIGTERM', () => controller.abort())
process.once('SIGINT', () => controller.abort())

try {
  // Without JUDGE_PROJECTS the examples are served, and their store holds simulated answers: the
  // simulated engine (unless ENGINE says otherwise) answers from it, and says so.
  const env = process.env.JUDGE_PROJECTS ? process.env : { ENGINE: 'simulated', ...process.env }
  const config = readConfig(env, process.cwd(), DEFAULT_PROJECTS)
  const status = await serveAll(config, { log, signal: controller.signal })
  // Exit outright: a shadow judgment cut short at the shutdown bound must not hold the process.
  process.exit(status)
} catch (error) {
  log(`judge server: ${error instanceof JudgeError ? error.message : ((error as Error)?.stack ?? String(error))}`)
  process.exit(error instanceof JudgeError ? error.exitCode : 1)
}
