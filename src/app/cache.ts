import { selectJudgments } from '../core/judge/select.ts'
import type { Project, Spec } from '../core/types.ts'
import type { AnswerGroup } from '../ports/answer-store.ts'
import type { KeptStore } from '../ports/kept-store.ts'
import type { RunStore } from '../ports/run-store.ts'
import type { App } from './app.ts'

/**
 * What an answer group is to the named judgments: `current` (the wording of a question of a spec
 * of the project), `candidate` (of a shadow candidate seen), `in use` (of the last run of a
 * judgment outside the project: another folder sharing the store, a replayed candidate),
 * `superseded` (an older wording of a question a named spec still has: what pruning deletes), or
 * `other` (anything else, kept: another judgment's, or of a question the spec no longer has).
 */
export type GroupStatus = 'current' | 'candidate' | 'in use' | 'superseded' | 'other'

/** An answer group with its status. */
export interface CacheGroup extends AnswerGroup {
  readonly status: GroupStatus
}

/** What pruning found, and deleted unless it was a dry run. */
export interface Pruned {
  readonly dry_run: boolean
  readonly superseded: readonly CacheGroup[]
  /** Answers in the superseded groups. */
  readonly answers: number
  /** Answers deleted: 0 in a dry run. */
  readonly deleted: number
}

/**
 * The store's answers per (judgment, question, model, fingerprint), with counts, age and status
 * against the judgments the path (or `judgment`) selects. Reading creates no store.
 */
export function cacheGroups(app: App, project: Project, judgment: string | null | undefined): CacheGroup[] {
  const store = app.existingStore(project)
  if (!store) return []
  const named = selectJudgments(project, judgment, 'all')
  const status = statusOf(store, project, named)
  return store.answerGroups().map((group) => ({ ...group, status: status(group) }))
}

/**
 * Deletes the answers of the superseded groups (see GroupStatus), or with `apply` false only says
 * what would go. Nothing else is ever deleted: states, runs and the other groups stay.
 */
export function pruneCache(app: App, project: Project, judgment: string | null | undefined, apply: boolean): Pruned {
  const superseded = cacheGroups(app, project, judgment).filter((g) => g.status === 'superseded')
  const answers = superseded.reduce((n, g) => n + g.answers, 0)
  if (!apply || superseded.length === 0) return { dry_run: !apply, superseded, answers, deleted: 0 }
  const store = app.existingStore(project)!
  const deleted = superseded.reduce((n, g) => n + store.deleteAnswers(g), 0)
  return { dry_run: false, superseded, answers, deleted }
}

function statusOf(
  store: KeptStore & RunStore,
  project: Project,
  named: readonly Spec[],
): (group: AnswerGroup) => GroupStatus {
  const current = new Set(project.specs.flatMap((s) => s.questions.map((q) => q.fingerprint)))
  const candidates = new Set(store.candidateQuestions().map((c) => c.fingerprint))
  const inProject = new Set(project.specs.map((s) => s.name))
  const elsewhere = new Set(
    store
      .latestRuns()
      .filter((r) => !inProject.has(r.judgment))
      .flatMap((r) => Object.values(r.fingerprints)),
  )
  const asked = new Set(named.flatMap((s) => s.questions.map((q) => `${s.name}\0${q.name}`)))
  return (group) => {
    if (current.has(group.fingerprint)) return 'current'
    if (candidates.has(group.fingerprint)) return 'candidate'
    if (elsewhere.has(group.fingerprint)) return 'in use'
    return asked.has(`${group.judgment}\0${group.question}`) ? 'superseded' : 'other'
  }
}

/**
 * The write mark of the project's store (0 without one; reading creates nothing): the store's one
 * staleness signal, which moves with every write by any process, answers deleted among them, so
 * that what a long-lived process made from the store can be dropped.
 */
export function storeMarkOf(app: App, project: Project): number {
  return app.existingStore(project)?.writeMark() ?? 0
}
