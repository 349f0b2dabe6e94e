import type { TargetFigures } from '../core/allocation/reviews-needed.ts'
import { modelFor } from '../core/judge/deps.ts'
import { selectJudgments } from '../core/judge/select.ts'
import { countingVerdicts, type Reviews } from '../core/review/double-review.ts'
import { checkVerdict, type VerdictRequest } from '../core/review/verdict-check.ts'
import { leasedQueue, type Lease } from '../core/review/leases.ts'
import { PAGE_SIZE } from '../core/review/queue.ts'
import { KINDS, verdictKey, type Kind, type VerdictRecord, type Verdicts } from '../core/review/verdicts.ts'
import type { Project, Spec } from '../core/types.ts'
import { ConflictError, JudgeError } from '../errors.ts'
import type { App } from './app.ts'
import { queueData, type StoredQueue } from './review-data.ts'
import { liveLeases } from './review-leases.ts'

/** The queue a reviewer works on: one judgment of a project, with its spot-check size. */
export interface QueueTarget {
  readonly project: Project
  readonly spec: Spec
  /** Spot-check rows per question. */
  readonly spotChecks: number
  /** Rows the queue must be able to show from its start (a page's end); default one page. */
  readonly limit?: number
  /** States the queue must offer even when far down the unsure rows (a reviewer opening one row). */
  readonly rows?: readonly string[]
  /**
   * Who the queue is for: a row chosen for a second review is offered to anyone but its reviewers. Without it, no
   * reviewed row is offered.
   */
  readonly reviewedBy?: string
  /**
   * Who the queue is shown to under the holds (docs/review.md, Leases): their held rows stay offered, others' are not;
   * null for a view without a name, which sees every row not held. Without it, holds are not read.
   */
  readonly viewer?: string | null
}

/** A judgment's queue and the standing verdicts it was built from: those that count, and every one. */
export interface ReviewQueue extends StoredQueue {
  readonly verdicts: Verdicts
  readonly reviews: Reviews
  /** The holds read for a viewer (docs/review.md, Leases); none when the queue has no viewer. */
  readonly leases?: readonly Lease[]
}

/** The queue target of a project: the judgment named, or its only one. */
export function queueTarget(project: Project, judgment: string | null | undefined, spotChecks: number): QueueTarget {
  const [spec] = selectJudgments(project, judgment, 'one')
  return { project, spec, spotChecks }
}

/** A judgment's review queue, from its store, answer key and reviews file; the engine is never asked. */
export async function reviewQueue(app: App, target: QueueTarget): Promise<ReviewQueue> {
  const { spec, project } = target
  const [key, reviews] = await Promise.all([app.files.key(spec), app.files.reviews(spec)])
  const verdicts = countingVerdicts(reviews)
  const store = app.existingStore(project)
  // No store yet means no answers yet: nothing to offer, and reading must not create one.
  if (store === null)
    return { spec, offered: [], cards: [], left: nothingLeft(spec), targets: noTargets(spec), verdicts, reviews }
  const source = { store, model: modelFor(spec, app.depsFor(project)), spec, key, verdicts }
  const second = target.reviewedBy === undefined ? {} : { reviews, reviewer: target.reviewedBy }
  const leases = target.viewer === undefined ? [] : liveLeases(store, spec, key, app.now())
  const limit = target.limit ?? PAGE_SIZE
  // Rows held by others are read too and left out, so that a page is still full behind them.
  const queue = queueData(source, {
    spotChecks: target.spotChecks,
    limit: limit + leases.length,
    rows: target.rows,
    ...second,
  })
  const reviewed = (question: string, stateHash: string) => verdicts.has(verdictKey(spec.name, question, stateHash))
  return { ...leasedQueue(queue, leases, target.viewer ?? null, reviewed, limit), verdicts, reviews, leases }
}

function nothingLeft(spec: Spec): Record<string, Record<Kind, number>> {
  return Object.fromEntries(
    spec.questions.map((q) => [q.name, Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>]),
  )
}

// Without answers there is nothing to estimate, so no count of reviews to reach the target.
function noTargets(spec: Spec): Record<string, TargetFigures> {
  return Object.fromEntries(
    spec.questions.map((q) => [q.name, { accuracy_target: spec.accuracyTarget, reviews_needed: null }]),
  )
}

/**
 * Records one verdict: checks it against the current queue (409 for a row not offered as that
 * kind) and appends it to the reviews file, both under the reviews file's lock, so that of two
 * verdicts on one row only one is accepted, whichever processes they came to.
 */
export function recordVerdict(app: App, target: QueueTarget, request: VerdictRequest): Promise<VerdictRecord> {
  const { spec } = target
  return serialized(app, spec, async () => {
    // The row is read however far down the unsure rows it is: a held card may be, for its second review.
    const rows = [...(target.rows ?? []), request.stateHash]
    const record = checkVerdict(
      await reviewQueue(app, { ...target, rows, reviewedBy: request.reviewer, viewer: request.reviewer }),
      request,
    )
    await written(spec, () => app.files.appendVerdict(spec, record))
    // The row is settled: its hold is released, for a second reviewer if it is drawn for one.
    app.existingStore(target.project)?.releaseRow(spec.name, record.question, record.state_hash)
    return record
  })
}

/** An undo: the row's verdict to withdraw, named by when it was given, and who withdraws it. */
export interface UndoRequest {
  readonly question: string
  readonly stateHash: string
  /** The `reviewed_at` of the verdict to withdraw: an undo withdraws only the verdict it was shown. */
  readonly reviewedAt: string
  readonly reviewer: string
  /** When it is withdrawn: UTC timestamp without zone offset. */
  readonly at: string
}

/**
 * Withdraws a verdict by appending a retraction line (the reviews file is never edited); the row
 * is offered again, and the reviewer's holds on `project`'s store are released. Only the row's standing verdict given
 * at `reviewedAt` is withdrawn: one undone
 * already, or followed by a later verdict, is a 409. The check and the append share the verdicts' lock.
 */
export function undoVerdict(app: App, spec: Spec, request: UndoRequest, project?: Project): Promise<VerdictRecord> {
  return serialized(app, spec, async () => {
    // A retraction withdraws the row's latest verdict, whoever gave it: only that one can be undone.
    const standing = (await app.files.reviews(spec))
      .get(verdictKey(spec.name, request.question, request.stateHash))
      ?.at(-1)
    if (!standing || standing.reviewed_at !== request.reviewedAt) {
      const row = /^[0-9a-f]{16}$/.test(request.stateHash) ? `row ${request.stateHash}` : 'that row'
      throw new ConflictError(
        `question ${request.question}: ${row} has no standing verdict given ` +
          `at ${JSON.stringify(request.reviewedAt.slice(0, 40))} to undo; it was undone already, ` +
          'or a later verdict stands',
      )
    }
    await written(spec, () =>
      app.files.appendRetraction(spec, { retracted_at: request.at, reviewer: request.reviewer, withdrawn: standing }),
    )
    // The reviewer's holds are released: their next page takes the row back first.
    if (project) app.existingStore(project)?.releaseReviewer(spec.name, request.reviewer)
    return standing
  })
}

/**
 * Runs a check and its append under the reviews file's lock: first in this process's queue, so
 * that its callers wait for each other here, then across processes. A lock that cannot be taken
 * (the file's folder is missing) fails as the write would; one held elsewhere too long is a 503.
 */
export function serialized<T>(app: App, spec: Spec, work: () => Promise<T>): Promise<T> {
  return app.locks.run(spec.reviews, () => {
    let started = false
    const begun = () => {
      started = true
      return work()
    }
    return app.fileLocks.hold(spec.reviews, begun).catch((error: unknown) => {
      throw started || error instanceof JudgeError ? error : notWritten(spec, error)
    })
  })
}

/**
 * Runs an append to the reviews file; a failure is an error naming the file. One the adapter has
 * named already (a full disk, a read-only file: a 503 saying what to do) is passed on as it is.
 */
export async function written(spec: Spec, append: () => Promise<void>): Promise<void> {
  try {
    await append()
  } catch (error) {
    throw error instanceof JudgeError ? error : notWritten(spec, error)
  }
}

function notWritten(spec: Spec, error: unknown): JudgeError {
  const code = (error as NodeJS.ErrnoException).code ?? String(error)
  const message = `cannot write the reviews file ${spec.reviews} of ${spec.name}: ${code}; nothing was saved`
  return new JudgeError(message, { cause: error, context: { judgment: spec.name, file: spec.reviews } })
}
