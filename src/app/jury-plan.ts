import { jurorEngineOf, type JudgeDeps } from '../core/judge/deps.ts'
import { createPlanner, type Planner } from '../core/judge/plan.ts'
import { withDependencies } from '../core/judge/select.ts'
import { hasJury } from '../core/jury/jurors.ts'
import type { Juror, Project, Row, Spec } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'

/** What judging the rows would ask of one juror of a jury: its answers are stored, and priced, apart. */
export interface JurorPlan {
  /** The model id its answers are kept under. */
  readonly model: string
  /** The engine the spec names for it; null for the configured ENGINE. */
  readonly engine: string | null
  /** Its answers the store already holds, per distinct state and question: they cost nothing. */
  readonly cached: number
  readonly ask: number
  readonly requests: number
  /** Estimated USD at its engine's estimate and price. */
  readonly estimate: number
}

/** A jury's plan: each juror apart, and their sum. */
export interface JuryPlan {
  readonly judgment: string
  readonly jurors: readonly JurorPlan[]
  readonly ask: number
  readonly requests: number
  readonly estimate: number
}

/** Planners of every juror of the jury specs among the specs planned (dependencies included): add rows, then read. */
export interface JuryPlanner {
  add(row: Row, where: string): void
  result(): JuryPlan[]
}

/**
 * Plans each juror of each jury spec as the spec asking that juror alone, with its engine and price (`jurorEngineOf`;
 * `deps.pricePerMtok` for a juror on the configured engine, so that a batch price given to the plan holds for it).
 * Reads the store only; asks nothing.
 */
export function createJuryPlanner(
  deps: Pick<JudgeDeps, 'engine' | 'defaultModel' | 'pricePerMtok' | 'jurorEngine'> & { readonly store: AnswerStore },
  project: Project,
  specs: readonly Spec[],
): JuryPlanner {
  const juries = withDependencies(project, specs).filter(hasJury)
  const seats = juries.map((spec) => ({
    spec,
    jurors: spec.jurors!.map((juror) => ({ juror, planner: jurorPlanner(deps, project, spec, juror) })),
  }))
  return {
    add(row, where) {
      for (const { jurors } of seats) for (const { planner } of jurors) planner.add(row, where)
    },
    result() {
      return seats.map(({ spec, jurors }) => {
        const plans = jurors.map(({ juror, planner }): JurorPlan => {
          const plan = planner.result().find((p) => p.judgment === spec.name)!
          const { model, cached, ask, requests, estimate } = plan
          return { model, engine: juror.engine, cached, ask, requests, estimate }
        })
        const sum = (f: 'ask' | 'requests' | 'estimate') => plans.reduce((n, p) => n + p[f], 0)
        return {
          judgment: spec.name,
          jurors: plans,
          ask: sum('ask'),
          requests: sum('requests'),
          estimate: sum('estimate'),
        }
      })
    },
  }
}

/** A planner of the spec as if it named the juror's model alone, asked with the juror's engine and price. */
function jurorPlanner(
  deps: Pick<JudgeDeps, 'engine' | 'defaultModel' | 'pricePerMtok' | 'jurorEngine'> & { readonly store: AnswerStore },
  project: Project,
  spec: Spec,
  juror: Juror,
): Planner {
  const { engine, pricePerMtok } = jurorEngineOf(deps, juror)
  const alone: Spec = { ...spec, model: juror.model, jurors: null }
  const specs = project.specs.map((s) => (s.name === spec.name ? alone : s))
  const own = { store: deps.store, defaultModel: deps.defaultModel, engine, pricePerMtok }
  return createPlanner(own, { ...project, specs, selected: [alone] }, [alone])
}
