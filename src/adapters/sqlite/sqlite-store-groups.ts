import type { DatabaseSync } from 'node:sqlite'
import { lazy } from '../../lazy.ts'
import type { MethodKind, StoreMethod } from '../../ports/store.ts'
import type { Statements } from './sqlite-statements.ts'
import { answerMethods, type KeptCount } from './sqlite-store-answers.ts'
import { engineMethods } from './sqlite-store-engine.ts'
import type { WriteTransaction } from './sqlite-transactions.ts'

// The groups a row's judging calls none of load their module on the first call of one of their
// methods, and so a judge() call loads none of them (docs/architecture.md, Entry points).
const runs = lazy<typeof import('./sqlite-store-runs.ts')>(import.meta.url, './sqlite-store-runs.ts')
const records = lazy<typeof import('./sqlite-store-records.ts')>(import.meta.url, './sqlite-store-records.ts')
const forgetting = lazy<typeof import('./sqlite-store-forget.ts')>(import.meta.url, './sqlite-store-forget.ts')
const caching = lazy<typeof import('./sqlite-store-cache.ts')>(import.meta.url, './sqlite-store-cache.ts')
const reasking = lazy<typeof import('./sqlite-store-reasks.ts')>(import.meta.url, './sqlite-store-reasks.ts')
const leasing = lazy<typeof import('./sqlite-store-leases.ts')>(import.meta.url, './sqlite-store-leases.ts')
const batching = lazy<typeof import('./sqlite-store-batches.ts')>(import.meta.url, './sqlite-store-batches.ts')
const juries = lazy<typeof import('./sqlite-store-jury.ts')>(import.meta.url, './sqlite-store-jury.ts')
const tallying = lazy<typeof import('./sqlite-store-tally.ts')>(import.meta.url, './sqlite-store-tally.ts')

/** What an open store's groups of methods are made over. */
export interface StoreParts {
  readonly db: DatabaseSync
  readonly sql: Statements
  readonly transaction: WriteTransaction
  readonly readOnly: boolean
  readonly kept: KeptCount
}

/** Each group of the store's methods, made from the store's parts. */
const GROUPS = {
  answers: (p: StoreParts) => answerMethods(p.sql, p.transaction, p.kept),
  engine: (p: StoreParts) => engineMethods(p.sql, p.transaction),
  runs: (p: StoreParts) => runs().runMethods(p.sql, p.transaction),
  records: (p: StoreParts) => records().recordMethods(p.sql, p.transaction),
  forget: (p: StoreParts) => forgetting().forgetMethods(p.db, p.transaction),
  cache: (p: StoreParts) => caching().cacheMethods(p.sql, p.transaction),
  reasks: (p: StoreParts) => reasking().reaskMethods(p.db, p.transaction),
  leases: (p: StoreParts) => leasing().leaseMethods(p.sql, p.transaction, p.readOnly),
  tally: (p: StoreParts) => tallying().tallyMethods(p.sql),
  batches: (p: StoreParts) => batching().batchMethods(p.db, p.transaction),
  jury: (p: StoreParts) => juries().juryMethods(p.db),
}

/** The methods each group makes. */
type Made = { [G in keyof typeof GROUPS]: ReturnType<(typeof GROUPS)[G]> }

/** The groups that make method `K`. */
type MakerOf<K extends StoreMethod> = { [G in keyof Made]: K extends keyof Made[G] ? G : never }[keyof Made]

/**
 * Every method of the store: the group that makes it, and whether it reads (leaves what the store
 * holds as it was, and so shares the turn's read transaction) or writes (may change it). The
 * compiler holds the record to the port, no more and no less, and each method to a group that
 * makes it: a method added to a port cannot be left unclassified.
 */
export const STORE_METHODS = {
  getAnswers: { group: 'answers', kind: 'read' },
  answeredFingerprints: { group: 'answers', kind: 'read' },
  putAnswers: { group: 'answers', kind: 'write' },
  replaceAnswers: { group: 'answers', kind: 'write' },
  getStates: { group: 'answers', kind: 'read' },
  answersForStates: { group: 'answers', kind: 'read' },
  answerLabels: { group: 'answers', kind: 'read' },
  sampleAnswers: { group: 'answers', kind: 'read' },
  countAnswers: { group: 'tally', kind: 'read' },
  answerCells: { group: 'tally', kind: 'read' },
  modelAnswerCounts: { group: 'tally', kind: 'read' },
  countSources: { group: 'tally', kind: 'read' },
  answerGroups: { group: 'cache', kind: 'read' },
  deleteAnswers: { group: 'cache', kind: 'write' },
  writeMark: { group: 'cache', kind: 'read' },
  recordRun: { group: 'runs', kind: 'write' },
  putOpenRun: { group: 'runs', kind: 'write' },
  openRuns: { group: 'runs', kind: 'read' },
  closeOpenRun: { group: 'runs', kind: 'write' },
  listRuns: { group: 'runs', kind: 'read' },
  latestRuns: { group: 'runs', kind: 'read' },
  runLabelCounts: { group: 'runs', kind: 'read' },
  getRun: { group: 'runs', kind: 'read' },
  runStates: { group: 'runs', kind: 'read' },
  runStatesPage: { group: 'runs', kind: 'read' },
  runStateCount: { group: 'runs', kind: 'read' },
  deleteRunStates: { group: 'runs', kind: 'write' },
  sameRunStates: { group: 'runs', kind: 'read' },
  recordModelCheck: { group: 'runs', kind: 'write' },
  modelChecks: { group: 'runs', kind: 'read' },
  keepRow: { group: 'records', kind: 'write' },
  keptRows: { group: 'records', kind: 'read' },
  recordShadow: { group: 'records', kind: 'write' },
  shadowPairs: { group: 'records', kind: 'read' },
  candidateQuestions: { group: 'records', kind: 'read' },
  reservePace: { group: 'engine', kind: 'write' },
  holdPace: { group: 'engine', kind: 'write' },
  paceCut: { group: 'engine', kind: 'read' },
  cutPace: { group: 'engine', kind: 'write' },
  addSpend: { group: 'engine', kind: 'write' },
  spendByDay: { group: 'engine', kind: 'read' },
  heldFor: { group: 'forget', kind: 'read' },
  forget: { group: 'forget', kind: 'write' },
  statesWhere: { group: 'forget', kind: 'read' },
  expiredStates: { group: 'forget', kind: 'read' },
  recordForgotten: { group: 'forget', kind: 'write' },
  forgottenLines: { group: 'forget', kind: 'read' },
  addReasks: { group: 'reasks', kind: 'write' },
  latestReasks: { group: 'reasks', kind: 'read' },
  // Read under the write lock, so that a hold taken a moment ago elsewhere is seen; the holds ended go with it.
  heldRows: { group: 'leases', kind: 'write' },
  holdRows: { group: 'leases', kind: 'write' },
  releaseRow: { group: 'leases', kind: 'write' },
  releaseReviewer: { group: 'leases', kind: 'write' },
  recordBatch: { group: 'batches', kind: 'write' },
  updateBatch: { group: 'batches', kind: 'write' },
  listBatches: { group: 'batches', kind: 'read' },
  batchEntries: { group: 'batches', kind: 'read' },
  labelPatterns: { group: 'jury', kind: 'read' },
} as const satisfies { readonly [K in StoreMethod]: { readonly group: MakerOf<K>; readonly kind: MethodKind } }

/** A method of the store, as the composition handles it. */
export type AnyMethod = (...args: unknown[]) => unknown

/**
 * Every method of the store over `parts`, by name. A group is made (its module loaded) on the
 * first call of any of its methods; each method then calls its group's directly.
 */
export function storeMethods(parts: StoreParts): Record<StoreMethod, AnyMethod> {
  const made: { [G in keyof Made]?: Made[G] } = {}
  const methods = {} as Record<StoreMethod, AnyMethod>
  for (const name of Object.keys(STORE_METHODS) as StoreMethod[]) {
    const { group } = STORE_METHODS[name]
    let method: AnyMethod | undefined
    const make = () => (made[group] ??= GROUPS[group](parts) as never) as Record<StoreMethod, AnyMethod>
    methods[name] = (...args) => (method ??= make()[name])(...args)
  }
  return methods
}
