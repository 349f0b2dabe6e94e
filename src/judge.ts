// First: on a Node without node:sqlite, the library says which Node it needs.
import './supported-node.ts'
import { resolve } from 'node:path'
import { readConfig, type Config } from './config.ts'
import { judgeRequest } from './app/judge-request.ts'
import { loadProject } from './adapters/files/spec-files.ts'
import type { Answers, Row } from './core/types.ts'
import { createRuntime, type Runtime } from './runtime.ts'

// The `judge-rows/judge` entry is this file: the operation, what it takes and returns, and what
// makes its configuration and a runtime to reuse; it loads no server, CLI or batch code.
export { readConfig } from './config.ts'
export type { Config } from './config.ts'
export { createRuntime } from './runtime.ts'
export type { Runtime } from './runtime.ts'
export type { Answer, Answers, Row } from './core/types.ts'
export { JudgeError } from './errors.ts'

/** Options of the library's judge operation. */
export interface JudgeOptions {
  /** Return only the answers of this judgment; needed for a folder whose judgments share a question name. */
  readonly node?: string
  /** Cap in USD per judgment for this call; default JUDGE_MAX_COST (1.00). */
  readonly maxCost?: number
  /** Configuration; default read from process.env. */
  readonly config?: Config
  /** A runtime to reuse across calls (its stores stay open); default one opened and closed per call. */
  readonly runtime?: Runtime
}

/**
 * Judges one row with the spec file or folder at `path`: answers the store holds are reused, the
 * rest are asked of the engine and stored.
 *
 * @example
 * const answers = await judge('examples/sms/spam.judge.yaml', { message: 'WIN a prize! Text 80082' })
 * answers.is_spam // { label: 'yes', p: 0.97, margin: 0.94, route: 'block', cached: false }
 */
export async function judge(path: string, row: Row, options: JudgeOptions = {}): Promise<Answers> {
  const config = options.config ?? readConfig(process.env, process.cwd())
  const project = loadProject(resolve(path))
  const runtime = options.runtime ?? createRuntime(config)
  try {
    const { answers } = await judgeRequest(runtime, {
      project,
      row,
      judgment: options.node,
      cap: options.maxCost ?? config.maxCost,
    })
    return answers
  } finally {
    if (!options.runtime) runtime.close()
  }
}
