import { isSimulated } from '../core/engine-kinds.ts'
import { modelFor, type JudgeDeps } from '../core/judge/deps.ts'
import { isJury } from '../core/jury/jurors.ts'
import { tellPlannedEngines } from '../core/judge/known-without.ts'
import { createPlanner, type JudgmentPlan, type LastFingerprints } from '../core/judge/plan.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { StateTally } from '../core/judge/state-set.ts'
import type { Project, SourcedRow, Spec } from '../core/types.ts'
import type { RunStore } from '../ports/run-store.ts'
import { CostCapError, MissingKeyError, UsageError } from '../errors.ts'
import type { App } from './app.ts'
import { createJuryPlanner, withJuryTotals, type JuryPlan } from './jury-plan.ts'

/** Where the rows of a command come from: a data file, or rows already in hand. */
export type RowSource =
  | {
      readonly kind: 'file'
      readonly file: string
      readonly label: string
      readonly delimiter?: string | null
      readonly columns?: readonly string[] | null
    }
  | { readonly kind: 'rows'; readonly rows: readonly SourcedRow[] }

/** The rows of a source, streamed. */
export function rowsOf(app: App, source: RowSource): AsyncIterable<SourcedRow> | Iterable<SourcedRow> {
  return source.kind === 'file'
    ? app.files.rows(source.file, source.label, source.delimiter, source.columns)
    : source.rows
}

/** The data file of a command: the one given, else the `data:` of the selected judgments, which must agree. */
export function dataFileOf(given: string | undefined, specs: readonly Spec[]): string {
  if (given !== undefined) return given
  const files = [...new Set(specs.map((s) => s.data))]
  if (files.length === 1 && files[0] !== null) return files[0]
  if (files.length > 1) throw new UsageError('the judgments name different data files; give --data FILE')
  throw new UsageError('no data file: give --data FILE or set data: in the spec')
}

/**
 * What judging the rows of a source would do per judgment, reading them once and asking nothing;
 * with, per question, what a change of wording since the judgment's last run costs.
 */
export async function planRows(
  app: App,
  project: Project,
  specs: readonly Spec[],
  source: RowSource,
  pricePerMtok?: number,
): Promise<JudgmentPlan[]> {
  return (await planSource(app, project, specs, source, pricePerMtok)).plans
}

/** The plans of a source's rows, and the distinct states each judgment's plan saw. */
export interface SourcePlan {
  readonly plans: JudgmentPlan[]
  /** Each jury spec's jurors planned apart, when asked for (planJuries); else empty. */
  readonly juries: readonly JuryPlan[]
  /**
   * Per judgment (dependencies included), with their rows: for the run that follows to count its rows from when the
   * store answers them all, else to take over (its tally then holds them at no cost of its own).
   */
  readonly seen: ReadonlyMap<string, StateTally>
}

/**
 * planRows, with the distinct states it saw; priced at `pricePerMtok` when given (the bulk lane's); with each jury's
 * jurors planned apart when `jurors` is set.
 */
export async function planSource(
  app: App,
  project: Project,
  specs: readonly Spec[],
  source: RowSource,
  pricePerMtok?: number,
  jurors = false,
): Promise<SourcePlan> {
  const deps = app.depsFor(project)
  const priced = pricePerMtok === undefined ? deps : { ...deps, pricePerMtok }
  // The engines estimate with what the store knows of their models (a model whose answers were sampled costs k).
  tellPlannedEngines(deps, withDependencies(project, specs))
  const last = lastFingerprints(deps.store, withDependencies(project, specs))
  const planner = createPlanner(priced, project, specs, last)
  // A jury's jurors are priced apart, a question's changed wording too: asking it again asks each juror.
  const juries = createJuryPlanner(priced, project, specs, last)
  for await (const { row, where } of rowsOf(app, source)) {
    planner.add(row, where)
    juries.add(row, where)
  }
  // A jury's line is its jurors' sum, so that its cap is held to what asking them costs.
  const juryPlans = juries.result()
  const plans = withJuryTotals(planner.result(), juryPlans)
  const seen = new Map(plans.map((p) => [p.judgment, planner.seen(p.judgment)]))
  return { plans, seen, juries: jurors ? juryPlans : [] }
}

/** planRows with each jury spec's jurors priced apart (`judge plan`): a juror's stored answers cost nothing. */
export async function planJuries(
  app: App,
  project: Project,
  specs: readonly Spec[],
  source: RowSource,
  pricePerMtok?: number,
): Promise<Pick<SourcePlan, 'plans' | 'juries'>> {
  const { plans, juries } = await planSource(app, project, specs, source, pricePerMtok, true)
  return { plans, juries }
}

/**
 * Whether a plan's line is held by no cap: a jury of simulated jurors, or one model on an engine that spends nothing
 * (`spendsNothing`). A jury with a real juror is held, whatever ENGINE is.
 */
export function spendsNothingOn(plan: Pick<JudgmentPlan, 'model'>, spendsNothing: boolean): boolean {
  return isJury(plan.model) ? isSimulated(plan.model) : spendsNothing
}

/** The question fingerprints each judgment's last run recorded (runs made before they were recorded have none). */
export function lastFingerprints(store: RunStore, specs: readonly Spec[]): LastFingerprints {
  return new Map(
    specs.flatMap((spec) => {
      const last = store.listRuns([spec.name], 1)[0]?.fingerprints
      return last && Object.keys(last).length > 0 ? [[spec.name, last] as const] : []
    }),
  )
}

/**
 * Refuses, asking nothing, plans above the cap or plans that must ask without an engine key. The
 * cost refusal carries the plans, so that a caller can show them.
 */
export function checkPlans(deps: JudgeDeps, plans: readonly JudgmentPlan[], cap: number): void {
  const spendsNothing = deps.engine?.spendsNothing === true
  const over = plans.find((p) => !spendsNothingOn(p, spendsNothing) && p.estimate > cap)
  if (over) throw new CostCapError(over.judgment, over.ask, over.requests, over.estimate, cap, { plans })
  const asking = plans.find((p) => p.ask > 0)
  if (asking && !deps.engine) throw new MissingKeyError(asking.judgment)
}

/** The model each judgment of a project is asked with. */
export function modelsOf(deps: JudgeDeps, specs: readonly Spec[]): Record<string, string> {
  return Object.fromEntries(specs.map((s) => [s.name, modelFor(s, deps)]))
}
