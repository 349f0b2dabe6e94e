import { jurorEngineOf, seatedJurors, type JudgeDeps } from '../core/judge/deps.ts'
import { fingerprintsOf } from '../core/judge/judge-row.ts'
import { createPlanner, type JudgmentPlan, type Planner } from '../core/judge/plan.ts'
import { stateHash, stateOf } from '../core/judge/state.ts'
import { withDependencies } from '../core/judge/select.ts'
import { isSimulated } from '../core/engine-kinds.ts'
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
  /**
   * The jury's answers (per distinct state and question) for which some juror must be asked, as a run counts them
   * asked; null when the spec's state takes another judgment's label (its text is not known before that is asked).
   */
  readonly answers: number | null
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
    answers: spec.state.some((c) => c.ref) ? null : answersToAsk(deps, spec),
  }))
  return {
    add(row, where) {
      for (const { jurors, answers } of seats) {
        for (const { planner } of jurors) planner.add(row, where)
        answers?.add(row, where)
      }
    },
    result() {
      return seats.map(({ spec, jurors, answers }) => {
        const plans = jurors.map(({ juror, planner }): JurorPlan => {
          const plan = planner.result().find((p) => p.judgment === spec.name)!
          const { model, cached, ask, requests, estimate } = plan
          return { model, engine: juror.engine, cached, ask, requests, estimate }
        })
        const sum = (f: 'ask' | 'requests' | 'estimate') => plans.reduce((n, p) => n + p[f], 0)
        return {
          judgment: spec.name,
          jurors: plans,
          answers: answers?.count() ?? null,
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

/** A counter of a jury's answers that some juror must be asked for: add rows, then count. */
interface AnswersToAsk {
  add(row: Row, where: string): void
  count(): number
}

/** Counts, per distinct state of the rows, the jury's questions that some juror's stored answers lack. */
function answersToAsk(deps: Parameters<typeof createJuryPlanner>[0], spec: Spec): AnswersToAsk {
  const jurors = seatedJurors(spec, deps).map((s) => s.model)
  const fingerprints = fingerprintsOf(spec)
  const seen = new Set<string>()
  let count = 0
  return {
    add(row, where) {
      const hash = stateHash(stateOf(row, spec.state, where))
      if (seen.has(hash)) return
      seen.add(hash)
      const held = jurors.map((model) => deps.store.answeredFingerprints(model, hash, fingerprints))
      count += fingerprints.filter((fp) => held.some((h) => !h.has(fp))).length
    },
    count: () => count,
  }
}

/**
 * A jury's line of the plan, agreeing with its jurors' plans: the requests and estimate are its jurors' sum (what
 * judging it asks and costs, held to the cap), and its answers to ask those some juror must be asked for, the rest of
 * its answers counted as the store's (a run makes them from the jurors' stored answers). Other judgments as they are.
 */
export function withJuryTotals(plans: readonly JudgmentPlan[], juries: readonly JuryPlan[]): JudgmentPlan[] {
  return plans.map((plan) => {
    const jury = juries.find((j) => j.judgment === plan.judgment)
    if (!jury) return plan
    const ask = jury.answers ?? plan.ask
    return {
      ...plan,
      cached: plan.cached + plan.ask - ask,
      ask,
      requests: jury.requests,
      estimate: spentEstimate(jury),
    }
  })
}

/**
 * What a jury's jurors would spend: every juror's estimate when all are simulated (said as simulated, as one simulated
 * model's is), else the real jurors' alone, since a simulated juror spends nothing (as a run counts its cost).
 */
export function spentEstimate(jury: Pick<JuryPlan, 'jurors' | 'estimate'>): number {
  const free = jury.jurors.filter((j) => isSimulated(j.model))
  if (free.length === jury.jurors.length) return jury.estimate
  return jury.estimate - free.reduce((n, j) => n + j.estimate, 0)
}
