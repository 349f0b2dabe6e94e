/**
 * The library: the judge operation, the HTTP server as a mountable handler, and the typed
 * configuration they read.
 *
 * @example
 * import { createHandler, judge, readConfig } from 'judge'
 * const answers = await judge('specs/spam.judge.yaml', { message: 'WIN a prize!' })
 * const handler = createHandler(readConfig(process.env, process.cwd()))
 */
export { judge } from './judge.ts'
export type { JudgeOptions } from './judge.ts'
export { createHandler } from './http/handler.ts'
export type { HandlerOptions, JudgeHandler } from './http/handler.ts'
export { startServer } from './http/server.ts'
export type { RunningServer } from './http/server.ts'
export { readConfig } from './config.ts'
export type { Config, EngineConfig } from './config.ts'
export { createRuntime } from './runtime.ts'
export type { Runtime, RuntimeOptions } from './runtime.ts'
export type { Answer, Answers, DriftEntry, Row, RunRecord } from './core/types.ts'
export type { Engine, EngineRequest, EngineResult } from './ports/engine.ts'
export type { Store } from './ports/store.ts'
export {
  CostCapError,
  EngineError,
  ForbiddenError,
  InputError,
  JudgeError,
  MissingKeyError,
  NotFoundError,
  SpecError,
  UsageError,
} from './errors.ts'
