import type { RunFit } from '../core/fit/fit.ts'
import type { Project, RunRecord, Spec } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'
import type { App } from './app.ts'

/**
 * A judgment's newest run and its fit per question, the rows of lowest mass with their values: the `/accuracy` page's
 * and `judge plan`'s.
 */
export interface LastRunFit {
  readonly judgment: string
  readonly run_id: string
  readonly started_at: string
  readonly fit: RunFit
}

/**
 * A run's fit with the values of the rows it names, read from the store (the run keeps only their
 * hashes, so that rows deleted from the store leave no copy behind); a row the store no longer
 * holds gets null.
 */
export function withFitStates(store: Pick<AnswerStore, 'getStates'> | null, fit: RunFit | undefined): RunFit {
  const hashes = Object.values(fit ?? {}).flatMap((q) => q.lowest.map((row) => row.state_hash))
  if (hashes.length === 0 || store === null) return fit ?? {}
  const states = store.getStates(hashes)
  return Object.fromEntries(
    Object.entries(fit ?? {}).map(([question, q]) => [
      question,
      { ...q, lowest: q.lowest.map((row) => ({ ...row, state: states.get(row.state_hash) ?? null })) },
    ]),
  )
}

/**
 * The fit of each judgment's newest run, for the judgments given, with the rows' values; a judgment
 * without runs, or whose newest run was recorded before runs kept their fit, is left out. Reading
 * creates no store.
 */
export function lastRunFits(app: App, project: Project, specs: readonly Spec[]): LastRunFit[] {
  const store = app.existingStore(project)
  if (store === null) return []
  return specs.flatMap((spec) => {
    const [run] = store.listRuns([spec.name], 1)
    if (!run || Object.keys(run.fit ?? {}).length === 0) return []
    return [{ judgment: spec.name, run_id: run.run_id, started_at: run.started_at, fit: withFitStates(store, run.fit) }]
  })
}

/** A run's fit with the values of its rows of lowest mass, from its project's store. */
export function fitOfRun(app: App, project: Project, run: RunRecord): RunFit {
  return withFitStates(app.existingStore(project), run.fit)
}
