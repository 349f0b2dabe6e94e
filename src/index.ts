/**
 * The library: the judge operation, the HTTP server as a mountable handler, the use cases the CLI
 * and the server are made of, the ports they work through and the adapters behind them, typed.
 * `judge-rows/judge` (src/judge.ts) and `judge-rows/server` (src/server.ts) load less.
 *
 * @example
 * import { createHandler, judge, readConfig } from 'judge-rows'
 * const answers = await judge('specs/spam.judge.yaml', { message: 'WIN a prize!' })
 * const handler = createHandler(readConfig(process.env, process.cwd()))
 *
 * @example
 * // A use case on an App built from the configuration: plan a data file, asking nothing.
 * import { createRuntime, loadProject, planRows, readConfig } from 'judge-rows'
 * const runtime = createRuntime(readConfig(process.env, process.cwd()))
 * const project = loadProject('specs/spam.judge.yaml')
 * const plans = await planRows(runtime, project, project.selected, { kind: 'file', file: 'rows.csv', label: 'rows.csv'
 * })
 */

// First: on a Node without node:sqlite, the library says which Node it needs.
import './supported-node.ts'

// The operation and the server.
export { judge } from './judge.ts'
export type { JudgeOptions } from './judge.ts'
export { createHandler } from './http/handler.ts'
export type { HandlerOptions, JudgeHandler } from './http/handler.ts'
export { startServer } from './http/server.ts'
export type { RunningServer } from './http/server.ts'
export { JUDGE_ROUTES, ROUTES } from './http/routes.ts'

// Configuration, and the runtime that builds the App of the use cases from it.
export { ENGINE_KINDS, readConfig } from './config.ts'
export type { Config, EngineConfig, EngineKind } from './config.ts'
export { createRuntime, engineFor } from './runtime.ts'
export type { Runtime, RuntimeOptions } from './runtime.ts'
export { loadProject, createSpecCache } from './adapters/files/spec-files.ts'

// The use cases: each a function of an App.
export type { App } from './app/app.ts'
export { judgeRequest } from './app/judge-request.ts'
export type { JudgeInput, Judged } from './app/judge-request.ts'
export { checkPlans, dataFileOf, planRows } from './app/plan.ts'
export type { RowSource } from './app/plan.ts'
export { runRows } from './app/run.ts'
export type { RunInput } from './app/run.ts'
export { testJudgments } from './app/test-judgments.ts'
export type { TestInput, TestResult } from './app/test-judgments.ts'
export { replayKept } from './app/replay.ts'
export type { ReplayInput } from './app/replay.ts'
export { shadowRow } from './app/shadow.ts'
export type { ShadowJob } from './app/shadow.ts'
export { queueTarget, recordVerdict, reviewQueue } from './app/review.ts'
export type { QueueTarget } from './app/review.ts'
export { driftOf, likeDriftOf, listRuns } from './app/runs.ts'
export type { Drift, LikeDrift, PublicRun } from './app/runs.ts'
export type { LikeDriftEntry, LikeFilter } from './core/reports/like-runs.ts'
export type { ComparedDriftEntry, DataComparison } from './core/reports/data-comparison.ts'
export { cacheGroups, pruneCache } from './app/cache.ts'
export type { CacheGroup, GroupStatus, Pruned } from './app/cache.ts'
export { pruneRunStates } from './app/run-prune.ts'
export type { PrunedRun, PrunedRuns } from './app/run-prune.ts'
export { serverSpend } from './app/spend.ts'
export { forgetRows } from './app/forget.ts'
export type { ForgetInput, ForgetReport } from './app/forget.ts'
export { forgetExpired } from './app/forget-expired.ts'
export type { ExpiredInput, ExpiredJudgment, ExpiredReport } from './app/forget-expired.ts'
export type { ServerSpend } from './app/spend.ts'
export type { RunProgress } from './app/run.ts'

// The ports, and the adapters behind them.
export type { Engine, EngineEstimate, EngineRequest, EngineResult } from './ports/engine.ts'
export type { Files } from './ports/files.ts'
export type { AnswerStore, StoredAnswer } from './ports/answer-store.ts'
export type { KeptRow, KeptStore } from './ports/kept-store.ts'
export type { DaySpend, PaceSlot, PaceStore } from './ports/pace-store.ts'
export type { ForgetPlan, ForgetStore, ForgottenLine, HeldState } from './ports/forget-store.ts'
export type { RunStore } from './ports/run-store.ts'
export type { Store } from './ports/store.ts'
export { ENGINES } from './adapters/engines.ts'
export type { EngineEntry, EngineSettings } from './adapters/engines.ts'
export { createOpenAi } from './adapters/openai/openai.ts'
export type { OpenAiOptions } from './adapters/openai/openai.ts'
export { createSystemOne, SYSTEM_ONE_DEFAULT_MODEL, SYSTEM_ONE_DEFAULT_URL } from './adapters/system-one/system-one.ts'
export type { SystemOneOptions } from './adapters/system-one/system-one.ts'
export { createSimulatedEngine, SIMULATED_DEFAULT_MODEL } from './adapters/simulated/simulated.ts'
export { openSqliteStore } from './adapters/sqlite/sqlite-store.ts'
export { storeHealth } from './adapters/sqlite/store-health.ts'
export type { StoreHealth, StoreHealthOptions } from './adapters/sqlite/store-health.ts'
export type { SqliteStoreOptions } from './adapters/sqlite/sqlite-store.ts'
export { createLocalFiles } from './adapters/files/local-files.ts'

// What the operations return and take.
export type {
  Answer,
  Answers,
  DriftEntry,
  Project,
  Question,
  Row,
  RunRecord,
  SourcedRow,
  Spec,
  State,
} from './core/types.ts'
export type { JudgmentPlan } from './core/judge/plan.ts'

export {
  ConflictError,
  CostCapError,
  EngineError,
  ForbiddenError,
  InputError,
  InternalError,
  JudgeError,
  ListenError,
  MissingKeyError,
  NodeNeededError,
  NotFoundError,
  RetryLaterError,
  SpecError,
  UsageError,
} from './errors.ts'
export { StoreError, type StoreTrouble } from './store-error.ts'
