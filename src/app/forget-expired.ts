import { pickBefore } from '../core/forget/line-pick.ts'
import { retentionCutoff } from '../core/forget/retention.ts'
import { selectJudgments } from '../core/judge/select.ts'
import type { Project, Spec } from '../core/types.ts'
import type { ForgetStore } from '../ports/forget-store.ts'
import type { RunStore } from '../ports/run-store.ts'
import type { App } from './app.ts'
import { runForgetJob, totalsOf, type JobResult } from './forget-job.ts'

/** Which judgments' retention to apply, and whether to (a dry run otherwise). */
export interface ExpiredInput {
  readonly project: Project
  readonly judgment?: string | null
  readonly apply: boolean
  /** How it was asked for, for the forget log: `judge forget --expired`, `server`. */
  readonly command: string
}

/** What one judgment's retention removed, or would remove. */
export interface ExpiredJudgment extends JobResult {
  readonly judgment: string
  readonly retain_days: number
  /** What was stored (kept, shadowed, reviewed) before this time went. */
  readonly before: string
  readonly removed: ReturnType<typeof totalsOf>
}

/** What retention removed across the selected judgments that set `retain_days`. */
export interface ExpiredReport {
  readonly dry_run: boolean
  readonly judgments: readonly ExpiredJudgment[]
}

/**
 * Applies `retain_days`: for each selected judgment that sets it, forgets every copy of a row's
 * values older than that many days, each by its own time: the values of the judgment's states
 * last stored before the cutoff (kept by it or answered under its questions), the `state` cells
 * of its verdict lines given before it, and its rows kept for replay last seen before it.
 */
export async function forgetExpired(app: App, input: ExpiredInput): Promise<ExpiredReport> {
  const specs = selectJudgments(input.project, input.judgment, 'all').filter((s) => s.retainDays !== null)
  const store = specs.length > 0 ? app.existingStore(input.project) : null
  const judgments: ExpiredJudgment[] = []
  for (const spec of specs) {
    const before = retentionCutoff(app.now(), spec.retainDays!)
    const plan = {
      values: store ? store.expiredStates(spec.name, fingerprintsOf(store, spec), before) : [],
      records: [],
      stale: { judgment: spec.name, before },
    }
    const job = {
      project: input.project,
      plan,
      reviews: [{ spec, pick: pickBefore(spec.name, before) }],
      apply: input.apply,
      command: `retain_days ${spec.retainDays} of ${spec.name} (${input.command})`,
    }
    const result = await runForgetJob(app, store, job)
    judgments.push({
      judgment: spec.name,
      retain_days: spec.retainDays!,
      before,
      ...result,
      removed: totalsOf(result.states),
    })
  }
  return { dry_run: !input.apply, judgments }
}

/** The wordings a judgment's answers were asked under: its questions' now, and those its runs recorded. */
function fingerprintsOf(store: ForgetStore & RunStore, spec: Spec): string[] {
  const recorded = store.listRuns([spec.name], Infinity).flatMap((run) => Object.values(run.fingerprints))
  return [...new Set([...spec.questions.map((q) => q.fingerprint), ...recorded])]
}
