import { jurorEngineOf, seatedJurors, type JudgeDeps } from '../core/judge/deps.ts'
import { fingerprintsOf } from '../core/judge/judge-row.ts'
import { createPlanner, type JudgmentPlan, type LastFingerprints, type Planner } from '../core/judge/plan.ts'
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
  /** The engine that asks it: the spec's, else the configured ENGINE's name; null for an engine passed in code. */
  readonly engine: string | null
  /** Its answers the store already holds, per distinct state and question: they cost nothing. */
  readonly cached: number
  readonly ask: number
  readonly requests: number
  /** Estimated USD at its engine's estimate and price. */
  readonly estimate: number
  /**
   * Per question of the spec, estimated USD at its engine's estimate and price to ask it again, one request each, its
   * answers that a change of the question's wording since the judgment's last run left without a current one.
   */
  readonly refill: Readonly<Record<string, number>>
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
 * `deps.pricePerMtok` for a juror on the configured engine, so that a batch price given to the plan holds for it),
 * pricing again, per question, its answers that the wording's change since the judgment's last run (`last`) left
 * behind. Reads the store only; asks nothing.
 */
export function createJuryPlanner(
  deps: Pick<JudgeDeps, 'engine' | 'defaultModel' | 'pricePerMtok' | 'jurorEngine' | 'engineName'> & {
    readonly store: AnswerStore
  },
  project: Project,
  specs: readonly Spec[],
  last: LastFingerprints = new Map(),
): JuryPlanner {
  const juries = withDependencies(project, specs).filter(hasJury)
  const seats = juries.map((spec) => ({
    spec,
    jurors: spec.jurors!.map((juror) => ({ juror, planner: jurorPlanner(deps, project, spec, juror, last) })),
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
          const refill = Object.fromEntries(plan.questions.map((q) => [q.question, q.refill]))
          return { model, engine: jurorEngineName(deps, juror), cached, ask, requests, estimate, refill }
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

/** The name of a juror's engine: the spec's, else the configured ENGINE's; null for an engine passed in code. */
export function jurorEngineName(deps: Pick<JudgeDeps, 'engineName'>, juror: Juror): string | null {
  return juror.engine ?? deps.engineName ?? null
}

/**
 * A planner of the spec as if it named the juror's model alone, asked with the juror's engine and price; its questions
 * compared with the jury's last run (its dependencies' are not: only the jury's questions are priced again).
 */
function jurorPlanner(
  deps: Pick<JudgeDeps, 'engine' | 'defaultModel' | 'pricePerMtok' | 'jurorEngine' | 'engineName'> & {
    readonly store: AnswerStore
  },
  project: Project,
  spec: Spec,
  juror: Juror,
  last: LastFingerprints,
): Planner {
  const { engine, pricePerMtok } = jurorEngineOf(deps, juror)
  const alone: Spec = { ...spec, model: juror.model, jurors: null }
  const specs = project.specs.map((s) => (s.name === spec.name ? alone : s))
  const own = { store: deps.store, defaultModel: deps.defaultModel, engine, pricePerMtok }
  const lastRun = last.get(spec.name)
  const its: LastFingerprints = new Map(lastRun ? [[spec.name, lastRun]] : [])
  return createPlanner(own, { ...project, specs, selected: [alone] }, [alone], its)
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
 * its answers counted as the store's (a run makes them from the jurors' stored answers); a question's cost of asking
 * again is its jurors' sum too, each at its engine and price. Both sums are what is spent (estimateShare). Other
 * judgments as they are.
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
      estimate: estimateShare(jury).shown,
      questions: plan.questions.map((q) => ({ ...q, refill: refillShare(jury, q.question).shown })),
    }
  })
}

/**
 * A jury's estimate split as its line says it: what its jurors would spend shown (every juror's estimate when all are
 * simulated, said as simulated as one simulated model's is, else the real jurors' alone, since a simulated juror
 * spends nothing, as a run counts its cost), the simulated jurors' share beside it.
 */
export function estimateShare(jury: Pick<JuryPlan, 'jurors'>): JuryShare {
  return juryShare(jury.jurors, (j) => j.estimate)
}

/** A jury's cost, split as its line says it: the amount shown, and the simulated jurors' share said beside it. */
export interface JuryShare {
  /** Every juror's cost when all are simulated (the line is then said simulated), else the real jurors' alone. */
  readonly shown: number
  /** The simulated jurors' cost, which spends nothing, when some juror is real; else 0. */
  readonly simulated: number
}

/** What asking a jury's jurors again costs for one question's changed wording (JurorPlan.refill), split as shown. */
export function refillShare(jury: Pick<JuryPlan, 'jurors'>, question: string): JuryShare {
  return juryShare(jury.jurors, (j) => j.refill[question] ?? 0)
}

/** The jurors' sum of `cost`, split into what is shown and the simulated jurors' share said beside it. */
function juryShare(jurors: readonly JurorPlan[], cost: (juror: JurorPlan) => number): JuryShare {
  const sum = (of: readonly JurorPlan[]) => of.reduce((n, j) => n + cost(j), 0)
  const free = jurors.filter((j) => isSimulated(j.model))
  if (free.length === jurors.length) return { shown: sum(jurors), simulated: 0 }
  return { shown: sum(jurors.filter((j) => !isSimulated(j.model))), simulated: sum(free) }
}
