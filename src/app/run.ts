import type { JudgmentPlan } from '../core/judge/plan.ts'
import { countFromPlan } from '../core/judge/count-from-plan.ts'
import { judgeRows, type JudgeRowsOptions, type RowsOutcome } from '../core/judge/judge-rows.ts'
import { createLedger } from '../core/judge/ledger.ts'
import type { Judging } from '../core/judge/deps.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { GovernorStatus } from '../core/pacing/governor.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { checkPlans, planSource, rowsOf, type RowSource } from './plan.ts'
import { judgePass } from './open-runs.ts'
import { sourceProvenance } from './record-runs.ts'

/** A run over a source's rows. */
export interface RunInput {
  readonly project: Project
  /** The judgments named; their dependencies are judged and recorded too. */
  readonly specs: readonly Spec[]
  readonly source: RowSource
  /** Cap in USD per judgment for the whole run. */
  readonly cap: number
  readonly concurrency: number
  readonly signal?: AbortSignal
  /** Called with the plan once it is within the cap, before anything is asked, and a way to see how the run goes. */
  readonly onPlan?: (plans: readonly JudgmentPlan[], progress: () => RunProgress) => void
  /**
   * Called once per judged row with its results, in the order rows finish: a run given it judges
   * every row one by one, where it could otherwise count them from their plan.
   */
  readonly onRow?: JudgeRowsOptions['onRow']
  /**
   * Called with the rows judged so far (of each judgment): after each row, or once when they are
   * counted from their plan.
   */
  readonly onRows?: (done: number) => void
  /** A jury's answers made again with its current fit, replacing those stored (Judging's `reweigh`). */
  readonly reweigh?: boolean
  /** With `reweigh`: told of each state's jury answers that changed (Judging's `onReweighed`). */
  readonly onReweighed?: Judging['onReweighed']
}

/** How a run is going, beside its rows: for a progress bar. */
export interface RunProgress {
  /** Answers asked of the engine so far, over every judgment. */
  readonly asked: number
  /** USD spent so far, over every judgment. */
  readonly cost: number
  /** USD spent by the judgment that spent most: what the cap limits. */
  readonly topCost: number
  /** When the wait for the engine's rate limit ends (ms since the epoch), or null. */
  readonly rateLimitedUntil: number | null
  /** Engine requests failed since the last success. */
  readonly failing: number
}

/**
 * `run`: plans the rows (refusing, asking nothing, above the cap or without a key when something
 * must be asked), judges every row store first, each distinct state once, and records a run per
 * judgment. When the store answers every state of the plan and no caller wants the rows one by
 * one, the rows are counted from the plan (core/judge/count-from-plan.ts), not read again.
 *
 * The engine is waited out as a run's patience allows (docs/engine.md): a rate limit, however
 * long it asks, up to ENGINE_MAX_WAIT_S; a transient failure is asked again, until the engine has
 * failed for ENGINE_GIVE_UP_S. A run that failed or was interrupted midway is recorded too; its
 * answers so far stay stored, and running it again asks only the rest. Its runs are kept open as
 * it goes (app/open-runs.ts), so that even a process killed midway leaves its spend.
 */
export async function runRows(app: App, input: RunInput): Promise<RunRecord[]> {
  const deps = app.depsFor(input.project)
  const { plans, seen } = await planSource(app, input.project, input.specs, input.source)
  checkPlans(deps, plans, input.cap)
  const specs = withDependencies(input.project, input.specs)
  const provenance = await sourceProvenance(app, input.project, input.source)
  const ledger = createLedger(input.cap)
  input.onPlan?.(plans, () => {
    const tallies = specs.map((s) => ledger.tally(s.name))
    const status = deps.governor?.status()
    return {
      asked: tallies.reduce((sum, t) => sum + t.asked, 0),
      cost: tallies.reduce((sum, t) => sum + t.cost, 0),
      topCost: Math.max(0, ...tallies.map((t) => t.cost)),
      rateLimitedUntil: status?.rateLimitedUntil ?? null,
      failing: status?.failing ?? 0,
    }
  })
  const pass = { project: input.project, record: specs, named: input.specs, provenance, ledger, started: app.now() }
  const rowsDone = (outcome: RowsOutcome) => input.onRows?.(outcome.rows.get(specs[0].name) ?? 0)
  return judgePass(app, pass, async (onProgress) => {
    // Rows the store answers in full are counted from their plan, each distinct state once.
    const counted =
      input.onRow === undefined && !input.reweigh && plans.every((p) => p.ask === 0)
        ? countFromPlan(deps, ledger, specs, seen)
        : null
    if (counted !== null) {
      onProgress(counted)
      rowsDone(counted)
      return counted
    }
    const { reweigh, onReweighed } = input
    const job: Judging = { deps, ledger, signal: input.signal, patience: 'run', reweigh, onReweighed }
    return judgeRows(job, specs, rowsOf(app, input.source), {
      concurrency: input.concurrency,
      onRow: input.onRow,
      onProgress: (outcome) => {
        onProgress(outcome)
        rowsDone(outcome)
      },
      // The run's tallies of its states take over the plan's: a tally of its own would take 11 bytes a state more.
      expected: seen,
    })
  })
}

/**
 * What the engine refused or could not take so far on the project's store, and the rate kept: for a run's closing note.
 */
export function engineLimits(app: App, project: Project): GovernorStatus | undefined {
  return app.depsFor(project).governor?.status()
}
