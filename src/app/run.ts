import type { JudgmentPlan } from '../core/judge/plan.ts'
import { judgeRows, type JudgeRowsOptions } from '../core/judge/judge-rows.ts'
import { createLedger } from '../core/judge/ledger.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { checkPlans, planRows, rowsOf, type RowSource } from './plan.ts'
import { recordRuns, sourceProvenance } from './record-runs.ts'

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
  /** Called with the plan once it is within the cap, before anything is asked. */
  readonly onPlan?: (plans: readonly JudgmentPlan[]) => void
  readonly onRow?: JudgeRowsOptions['onRow']
}

/**
 * `run`: plans the rows (refusing, asking nothing, above the cap or without a key when something
 * must be asked), judges every row store first, each distinct state once, and records a run per
 * judgment. A run that failed midway is recorded too; its answers so far stay stored.
 */
export async function runRows(app: App, input: RunInput): Promise<RunRecord[]> {
  const deps = app.depsFor(input.project)
  const plans = await planRows(app, input.project, input.specs, input.source)
  checkPlans(deps, plans, input.cap)
  input.onPlan?.(plans)
  const specs = withDependencies(input.project, input.specs)
  const provenance = await sourceProvenance(app, input.project, input.source)
  const ledger = createLedger(input.cap)
  const started = app.now()
  const outcome = await judgeRows({ deps, ledger, signal: input.signal }, specs, rowsOf(app, input.source), {
    concurrency: input.concurrency,
    onRow: input.onRow,
  })
  return recordRuns(app, { project: input.project, record: specs, named: input.specs, provenance, outcome, ledger, started })
}
