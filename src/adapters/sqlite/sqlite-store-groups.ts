import { createRequire } from 'node:module'
import { extname } from 'node:path'
import type { DatabaseSync } from 'node:sqlite'
import type { ForgetStore } from '../../ports/forget-store.ts'
import type { KeptStore } from '../../ports/kept-store.ts'
import type { LeaseStore } from '../../ports/lease-store.ts'
import type { ReaskStore } from '../../ports/reask-store.ts'
import type { RunStore } from '../../ports/run-store.ts'
import type { Statements } from './sqlite-statements.ts'
import type { CacheMethods } from './sqlite-store-cache.ts'
import type { TallyMethods } from './sqlite-store-tally.ts'

// The store's methods of runs, kept rows, forgetting, the cache's groups and the tally, each
// group's module loaded when one of its methods is first called: judging a row calls none, and so
// loads none (docs/architecture.md). The
// port is synchronous, as node:sqlite is, so the module is loaded synchronously (Node 24 requires
// an ES module into the module cache import uses); the extension is this file's own.
const load = createRequire(import.meta.url)
const EXT = extname(import.meta.filename)
const runs = () => load(`./sqlite-store-runs${EXT}`) as typeof import('./sqlite-store-runs.ts')
const records = () => load(`./sqlite-store-records${EXT}`) as typeof import('./sqlite-store-records.ts')
const forgetting = () => load(`./sqlite-store-forget${EXT}`) as typeof import('./sqlite-store-forget.ts')
const caching = () => load(`./sqlite-store-cache${EXT}`) as typeof import('./sqlite-store-cache.ts')
const reasking = () => load(`./sqlite-store-reasks${EXT}`) as typeof import('./sqlite-store-reasks.ts')
const leasing = () => load(`./sqlite-store-leases${EXT}`) as typeof import('./sqlite-store-leases.ts')
const tallying = () => load(`./sqlite-store-tally${EXT}`) as typeof import('./sqlite-store-tally.ts')

/** Every method of a group, by name: the compiler holds each list to its port, no more, no less. */
type Names<M> = Readonly<Record<keyof M, true>>

const RUN_METHODS: Names<RunStore> = {
  recordRun: true,
  putOpenRun: true,
  openRuns: true,
  closeOpenRun: true,
  listRuns: true,
  latestRuns: true,
  runLabelCounts: true,
  getRun: true,
  runStates: true,
  runStatesPage: true,
  runStateCount: true,
  deleteRunStates: true,
  sameRunStates: true,
  recordModelCheck: true,
  modelChecks: true,
}
const KEPT_METHODS: Names<KeptStore> = {
  keepRow: true,
  keptRows: true,
  recordShadow: true,
  shadowPairs: true,
  candidateQuestions: true,
}
const FORGET_METHODS: Names<ForgetStore> = {
  heldFor: true,
  forget: true,
  statesWhere: true,
  expiredStates: true,
  recordForgotten: true,
  forgottenLines: true,
}
const CACHE_METHODS: Names<CacheMethods> = {
  answerGroups: true,
  deleteAnswers: true,
  answersEpoch: true,
  writeMark: true,
}
const TALLY_METHODS: Names<TallyMethods> = { countAnswers: true, answerCells: true, modelAnswerCounts: true }
const REASK_METHODS: Names<ReaskStore> = { addReasks: true, latestReasks: true }
const LEASE_METHODS: Names<LeaseStore> = { heldRows: true, holdRows: true, releaseRow: true, releaseReviewer: true }

/**
 * A group of methods named by `names` that creates the group on the first call of any of them,
 * then calls the created method; later calls go to the same created group.
 */
export function onFirstUse<M extends object>(names: Names<M>, create: () => M): M {
  let group: M | null = null
  const methods: Record<string, (...args: unknown[]) => unknown> = {}
  for (const name of Object.keys(names)) {
    methods[name] = (...args) =>
      ((group ??= create()) as Record<string, (...args: unknown[]) => unknown>)[name](...args)
  }
  return methods as unknown as M
}

/** The run methods of a SQLite store (src/adapters/sqlite/sqlite-store-runs.ts), loaded on first use. */
export function runMethodsOnUse(sql: Statements, transaction: (work: () => void) => void): RunStore {
  return onFirstUse(RUN_METHODS, () => runs().runMethods(sql, transaction))
}

/** The kept-row and shadow methods (src/adapters/sqlite/sqlite-store-records.ts), loaded on first use. */
export function recordMethodsOnUse(sql: Statements, transaction: (work: () => void) => void): KeptStore {
  return onFirstUse(KEPT_METHODS, () => records().recordMethods(sql, transaction))
}

/** The forgetting methods (src/adapters/sqlite/sqlite-store-forget.ts), loaded on first use. */
export function forgetMethodsOnUse(
  db: DatabaseSync,
  sql: Statements,
  transaction: (work: () => void) => void,
): ForgetStore {
  return onFirstUse(FORGET_METHODS, () => forgetting().forgetMethods(db, sql, transaction))
}

/** The cache's answer groups and marks (src/adapters/sqlite/sqlite-store-cache.ts), loaded on first use. */
export function cacheMethodsOnUse(sql: Statements, transaction: (work: () => void) => void): CacheMethods {
  return onFirstUse(CACHE_METHODS, () => caching().cacheMethods(sql, transaction))
}

/** The counts of answers by label, p and margin (src/adapters/sqlite/sqlite-store-tally.ts), loaded on first use. */
export function tallyMethodsOnUse(sql: Statements): TallyMethods {
  return onFirstUse(TALLY_METHODS, () => tallying().tallyMethods(sql))
}

/** The re-asks of stability checks (src/adapters/sqlite/sqlite-store-reasks.ts), loaded on first use. */
export function reaskMethodsOnUse(db: DatabaseSync, transaction: (work: () => void) => void): ReaskStore {
  return onFirstUse(REASK_METHODS, () => reasking().reaskMethods(db, transaction))
}

/** The review queue's holds (src/adapters/sqlite/sqlite-store-leases.ts), loaded on first use. */
export function leaseMethodsOnUse(
  sql: Statements,
  transaction: (work: () => void) => void,
  readOnly: boolean,
): LeaseStore {
  return onFirstUse(LEASE_METHODS, () => leasing().leaseMethods(sql, transaction, readOnly))
}
