import { timestamp, modelFor, type JudgeDeps } from '../core/judge/deps.ts'
import { askAgain, reaskEstimate, type DrawnAnswer, type ReaskState } from '../core/stability/reask.ts'
import { selectJudgments } from '../core/judge/select.ts'
import { hasJury } from '../core/jury/jurors.ts'
import { bandOf, STRATA } from '../core/review/strata.ts'
import { splitSample } from '../core/stability/sample-split.ts'
import { readFromSamples, sampledReask } from '../core/stability/sampled.ts'
import type { Project, Spec } from '../core/types.ts'
import type { Reask } from '../ports/reask-store.ts'
import type { Store } from '../ports/store.ts'
import { CostCapError, MissingKeyError, UsageError } from '../errors.ts'
import type { App } from './app.ts'
import { figuresOf, type StabilityFigures } from './stability-latest.ts'

/** The default number of stored answers per question a stability check asks again. */
export const DEFAULT_SAMPLE = 200

/** What a stability check is asked to do. */
export interface StabilityInput {
  readonly project: Project
  readonly judgment?: string | null
  /** Stored answers per question to ask again, split between the strata (DEFAULT_SAMPLE). */
  readonly sample?: number
  /** USD per judgment: a check whose estimate is above it asks nothing (JUDGE_MAX_COST). */
  readonly cap: number
  /** Engine requests in flight at once (the governor may allow fewer). */
  readonly concurrency?: number
  readonly signal?: AbortSignal
  /** Told once every judgment's plan is within the cap, before anything is asked: the states to ask. */
  onPlan?(states: number): void
  /** Told after each state is asked again. */
  onAsked?(): void
}

/** One judgment's stability check: what it asked and what each question's labels did. */
export interface JudgmentStability {
  readonly judgment: string
  readonly model: string
  readonly check: string
  /** States asked again (one request each), and those drawn whose values are no longer in the store (not asked). */
  readonly states: number
  readonly skipped: number
  /** Answers drawn whose noise was read from the k draws they hold (source `samples`), not asked again. */
  readonly fromSamples: number
  readonly requests: number
  readonly cost: number
  readonly questions: StabilityFigures
}

/** One judgment's plan: the states to ask again and what they are expected to cost. */
interface Plan {
  readonly spec: Spec
  readonly model: string
  readonly states: readonly ReaskState[]
  /** The answers drawn that are read from their draws, not asked (core/stability/sampled.ts). */
  readonly fromSamples: readonly DrawnAnswer[]
  readonly skipped: number
  readonly estimate: number
  readonly requests: number
}

/**
 * Asks the engine again a stratified random sample of each question's stored answers (the first of
 * each stratum in the review order, a hash of judgment, question and state), past the answer
 * cache, and keeps the re-asks apart (`ReaskStore`); then the figures of each question. Every plan
 * is checked against the cap before anything is asked, as a run's is.
 */
export async function checkStability(app: App, input: StabilityInput): Promise<JudgmentStability[]> {
  const deps = app.depsFor(input.project)
  const specs = selectJudgments(input.project, input.judgment, 'all')
  refuseJury(specs)
  const plans = specs.map((spec) => planOf(deps, spec, input.sample ?? DEFAULT_SAMPLE))
  for (const p of plans) {
    if (p.estimate > input.cap)
      throw new CostCapError(
        p.spec.name,
        p.states.reduce((n, s) => n + s.drawn.length, 0),
        p.requests,
        p.estimate,
        input.cap,
      )
    if (p.states.length > 0 && !deps.engine) throw new MissingKeyError(p.spec.name)
  }
  input.onPlan?.(plans.reduce((n, p) => n + p.states.length, 0))
  const check = timestamp(app.now())
  const results: JudgmentStability[] = []
  for (const plan of plans) results.push(await askPlan(deps, plan, check, input))
  return results
}

/**
 * A jury's answers are its jurors' vote, asked of no engine: its noise is its jurors', each measured under its own
 * model. Refused before anything is planned, so that a jury's id is never sent to an engine as a model's.
 */
function refuseJury(specs: readonly Spec[]): void {
  const jury = specs.find(hasJury)
  if (!jury) return
  const juror = jury.jurors![0].model
  throw new UsageError(
    `judgment ${jury.name} names a jury (models:), whose answers are its jurors' vote: judge stability measures one ` +
      `model's noise; measure each juror's with a spec that names it alone (model: ${juror})`,
  )
}

function planOf(deps: JudgeDeps & { readonly store: Store }, spec: Spec, sample: number): Plan {
  const { store } = deps
  const model = modelFor(spec, deps)
  const byState = new Map<string, DrawnAnswer[]>()
  const fromSamples: DrawnAnswer[] = []
  for (const question of spec.questions) {
    const bands = Object.fromEntries(STRATA.map((s) => [s, bandOf(s, spec.unsureBelow)]))
    const sizes = Object.fromEntries(
      STRATA.map((s) => [s, store.countAnswers(model, question.fingerprint, bands[s])]),
    ) as Record<(typeof STRATA)[number], number>
    const split = splitSample(sample, sizes)
    for (const stratum of STRATA) {
      for (const stored of split[stratum] === 0
        ? []
        : store.sampleAnswers(model, question.fingerprint, spec.name, question.name, split[stratum], bands[stratum])) {
        const d: DrawnAnswer = { question, stored, stratum, size: sizes[stratum], sampled: split[stratum] }
        if (readFromSamples(d)) fromSamples.push(d)
        else byState.set(stored.stateHash, [...(byState.get(stored.stateHash) ?? []), d])
      }
    }
  }
  const values = store.getStates([...byState.keys()])
  const states = [...byState].flatMap(([stateHash, drawn]) => {
    const state = values.get(stateHash)
    return state === undefined ? [] : [{ spec, model, stateHash, state, drawn }]
  })
  const estimates = states.map((s) => reaskEstimate(deps, s))
  return {
    spec,
    model,
    states,
    fromSamples,
    skipped: byState.size - states.length,
    estimate: estimates.reduce((n, e) => n + e.cost, 0),
    requests: estimates.reduce((n, e) => n + e.requests, 0),
  }
}

async function askPlan(
  deps: JudgeDeps & { readonly store: Store },
  plan: Plan,
  check: string,
  input: StabilityInput,
): Promise<JudgmentStability> {
  // The sampled answers' re-asks are read from their draws and kept as the asked ones are, before any is asked.
  const kept: Reask[] = plan.fromSamples.map((d) => sampledReask(check, plan.spec.name, plan.model, d))
  deps.store.addReasks(kept)
  let cost = 0
  let requests = 0
  let next = 0
  const worker = async () => {
    while (next < plan.states.length) {
      const state = plan.states[next++]
      const asked = await askAgain(deps, check, state, input.signal)
      deps.store.addReasks(asked.reasks)
      kept.push(...asked.reasks)
      cost += asked.cost
      requests += asked.requests
      input.onAsked?.()
    }
  }
  await Promise.all(Array.from({ length: Math.min(input.concurrency ?? 8, plan.states.length) }, worker))
  const questions = figuresOf(deps.store, plan.spec, plan.model, (fingerprint) =>
    kept.filter((r) => r.fingerprint === fingerprint),
  )
  return {
    judgment: plan.spec.name,
    model: plan.model,
    check,
    states: plan.states.length,
    skipped: plan.skipped,
    fromSamples: plan.fromSamples.length,
    requests,
    cost,
    questions,
  }
}
