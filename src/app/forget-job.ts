import { relative } from 'node:path'
import { timestamp } from '../core/judge/deps.ts'
import type { LinePick } from '../core/forget/line-pick.ts'
import type { Project, Spec } from '../core/types.ts'
import { JudgeError } from '../errors.ts'
import type { ForgetPlan, ForgetStore, ForgottenLine, HeldState } from '../ports/forget-store.ts'
import type { App } from './app.ts'

/** What forgetting removes (or would) of one state, everywhere judge keeps it. */
export interface ForgottenRow {
  readonly state_hash: string
  /** Whether the store holds its values. */
  readonly values: boolean
  /** Rows kept for replay (of any judgment). */
  readonly kept_rows: number
  /** Lines of reviews files whose `state` cell is emptied. */
  readonly review_lines: number
}

/** One reviews file and the lines forgetting empties in it. */
export interface ReviewsFile {
  /** The file, from the project's folder. */
  readonly file: string
  readonly lines: number
}

/** What a forgetting job removed, or in a dry run would remove. */
export interface JobResult {
  readonly states: readonly ForgottenRow[]
  readonly reviews_files: readonly ReviewsFile[]
  /** Whether the store's write-ahead log was emptied after; null when the store was not written. */
  readonly log_cleared: boolean | null
}

/** The lines of one judgment's reviews file that a job empties. */
export interface ReviewsTarget {
  readonly spec: Spec
  readonly pick: LinePick
}

/** One forgetting: the store's part, the reviews files' part, and how it was asked for (the forget log's `command`). */
export interface ForgetJob {
  readonly project: Project
  readonly plan: ForgetPlan
  /** At most one per reviews file. */
  readonly reviews: readonly ReviewsTarget[]
  readonly apply: boolean
  readonly command: string
}

/**
 * Runs a forgetting job, or with `apply` false says what it would remove. The store goes first:
 * once a row's values are gone its review card cannot be shown, so no verdict on it is accepted
 * after; then each reviews file, under the lock its verdicts are appended under, so that none
 * appended meanwhile is lost; then the forget log of the files' part. Reading creates no store.
 */
export async function runForgetJob(app: App, store: ForgetStore | null, job: ForgetJob): Promise<JobResult> {
  const at = timestamp(app.now())
  const forgotten = store && job.apply ? store.forget(job.plan, { at, command: job.command }) : null
  const held = forgotten?.states ?? store?.heldFor(job.plan) ?? []
  const files = await Promise.all(
    job.reviews.map(async (target) => ({ target, lines: await linesOf(app, target, job.apply) })),
  )
  const found = files.filter((f) => f.lines.size > 0)
  if (job.apply && found.length > 0) {
    const logLines = found.flatMap(({ target, lines }) =>
      [...lines].map(
        ([stateHash, count]): ForgottenLine => ({
          at,
          command: job.command,
          stateHash,
          place: `reviews file ${relative(job.project.dir, target.spec.reviews)}`,
          count,
        }),
      ),
    )
    const logStore = store ?? app.depsFor(job.project).store
    logStore.recordForgotten(logLines)
  }
  return {
    states: rowsOf(
      held,
      found.map((f) => f.lines),
    ),
    reviews_files: found.map(({ target, lines }) => ({
      file: relative(job.project.dir, target.spec.reviews),
      lines: [...lines.values()].reduce((a, b) => a + b, 0),
    })),
    log_cleared: forgotten?.logCleared ?? null,
  }
}

/** The lines a target empties; applied under the file's lock, and only when a look without it found some. */
async function linesOf(app: App, { spec, pick }: ReviewsTarget, apply: boolean): Promise<Map<string, number>> {
  const found = await app.files.forgetReviewStates(spec, pick, false)
  if (!apply || found.size === 0) return found
  return app.locks
    .run(spec.reviews, () => app.fileLocks.hold(spec.reviews, () => app.files.forgetReviewStates(spec, pick, true)))
    .catch((error: unknown) => {
      if (error instanceof JudgeError) throw error
      const code = (error as NodeJS.ErrnoException).code ?? String(error)
      throw new JudgeError(
        `cannot rewrite the reviews file ${spec.reviews} of ${spec.name}: ${code}; ` +
          'its lines were not forgotten, run the same forget again',
        { cause: error, context: { judgment: spec.name, file: spec.reviews } },
      )
    })
}

/** Every state held anywhere, in hash order, with what each place holds of it. */
function rowsOf(held: readonly HeldState[], lines: readonly Map<string, number>[]): ForgottenRow[] {
  const rows = new Map<string, ForgottenRow>(
    held.map((h) => [
      h.stateHash,
      { state_hash: h.stateHash, values: h.values, kept_rows: h.keptRows, review_lines: 0 },
    ]),
  )
  for (const file of lines) {
    for (const [hash, count] of file) {
      const row = rows.get(hash) ?? { state_hash: hash, values: false, kept_rows: 0, review_lines: 0 }
      rows.set(hash, { ...row, review_lines: row.review_lines + count })
    }
  }
  return [...rows.values()].sort((a, b) => (a.state_hash < b.state_hash ? -1 : 1))
}

/** The reviews files of the given judgments, one target per file (judgments may share one). */
export function reviewsTargets(specs: readonly Spec[], pick: LinePick): ReviewsTarget[] {
  const byFile = new Map<string, ReviewsTarget>()
  for (const spec of specs) if (!byFile.has(spec.reviews)) byFile.set(spec.reviews, { spec, pick })
  return [...byFile.values()]
}

/** The totals of what a job's rows hold. */
export function totalsOf(rows: readonly ForgottenRow[]): { values: number; kept_rows: number; review_lines: number } {
  const sum = (pick: (r: ForgottenRow) => number) => rows.reduce((n, r) => n + pick(r), 0)
  return {
    values: sum((r) => (r.values ? 1 : 0)),
    kept_rows: sum((r) => r.kept_rows),
    review_lines: sum((r) => r.review_lines),
  }
}
