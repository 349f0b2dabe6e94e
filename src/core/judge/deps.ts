import { UsageError } from '../../errors.ts'
import type { Engine } from '../../ports/engine.ts'
import type { AnswerStore, StoredAnswer } from '../../ports/answer-store.ts'
import type { JuryStore } from '../../ports/jury-store.ts'
import type { PaceStore } from '../../ports/pace-store.ts'
import type { Governor, PatienceName } from '../pacing/governor.ts'
import { hasJury, juryModelId, seatJurors, type SeatedJuror } from '../jury/jurors.ts'
import type { ReviewedLabels } from '../jury/jury-fits.ts'
import type { Juror, Question, Spec, State } from '../types.ts'
import type { SpendMeter } from './daily-spend.ts'
import type { Ledger } from './ledger.ts'

/** The ports and settings the judge operation works with. */
export interface JudgeDeps {
  /**
   * The answers looked up and written, the engine spend counted against a daily cap, and a jury's jurors' labels
   * counted by pattern.
   */
  readonly store: AnswerStore & PaceStore & JuryStore
  /** Null when no engine key is configured: only answers the store holds can be given. */
  readonly engine: Engine | null
  /**
   * The model asked when a spec names none; null when neither ENGINE_MODEL nor the engine names one (ENGINE=openai),
   * so that only specs naming their model can be judged.
   */
  readonly defaultModel: string | null
  readonly pricePerMtok: number
  /** The configured ENGINE's name (e.g. `openai`), as what asks a juror naming no engine is shown; absent in code. */
  readonly engineName?: string
  /** Engine requests in flight for this store, so that identical rows ask once per store. */
  readonly inflight: Map<string, Promise<Asked>>
  /** Paces and retries the engine for this store; without one the engine is asked directly. */
  readonly governor?: Governor
  readonly now: () => Date
  /** The engine, price and governor that ask a jury's juror; absent, or `engine` null: `engine` and `pricePerMtok`. */
  readonly jurorEngine?: (juror: Juror) => JurorEngine
  /**
   * People's labels of a judgment's reviewed rows (its reviews file's standing verdicts), which a jury's fit weighs
   * its jurors by; absent: none, and a jury counts its jurors' votes equally.
   */
  readonly reviewedLabels?: (spec: Spec) => Promise<ReviewedLabels>
  /**
   * Fills a jury's missing answers for one state (`askJury`, core/judge/ask-jury.ts), loaded with the first jury
   * judged so that one model's judging loads none of a jury's code; absent, a jury cannot be judged.
   */
  readonly askJury?: (job: Judging, lookup: Lookup) => Promise<Filled>
}

/** One judgment's look-up of one state: what the store holds, and what it lacks. */
export interface Lookup {
  readonly spec: Spec
  readonly model: string
  readonly state: State
  readonly hash: string
  readonly stored: ReadonlyMap<string, StoredAnswer>
  readonly missing: readonly Question[]
}

/** What asking brought: every answer of the judgment, and which were asked by this caller. */
export interface Filled {
  readonly stored: ReadonlyMap<string, StoredAnswer>
  readonly fresh: ReadonlySet<string>
}

/** What asks one juror of a jury: its engine (null without a key), its price and its governor. */
export interface JurorEngine {
  readonly engine: Engine | null
  /** With no engine: the setting that is unset (ENGINE_ANTHROPIC_API_KEY), for the error that says so. */
  readonly unset?: string
  readonly pricePerMtok: number
  readonly governor?: Governor
}

/** What one engine request brought back, already stored. */
export interface Asked {
  readonly answers: ReadonlyMap<string, StoredAnswer>
  readonly cost: number
  /** HTTP requests it took. */
  readonly requests: number
}

/** One judging operation (a request or a command): its ports, its budget and tallies, its cancel signal. */
export interface Judging {
  readonly deps: JudgeDeps
  readonly ledger: Ledger
  /** Aborts engine requests in flight and stops new ones. */
  readonly signal?: AbortSignal
  /** How patient engine calls are: a request's short retry budget (the default) or a run's. */
  readonly patience?: PatienceName
  /** A spend cap across operations (the server's per day), checked before asking and told after. */
  readonly spend?: SpendMeter
  /**
   * A jury's answers made again: each row's jury answers are made from its jurors' answers (each juror asked only
   * what it lacks) with the jury's current fit, and replace those stored (`judge run --reweigh`).
   */
  readonly reweigh?: boolean
  /** Told, for each state re-weighed, how many of the jury's answers changed and how many of those changed label. */
  readonly onReweighed?: (judgment: string, changed: number, relabelled: number) => void
}

/** What finding a spec's model takes: the default model, and the engines that name their answers. */
export type ModelDeps = Pick<JudgeDeps, 'defaultModel'> & {
  readonly engine?: Engine | null
  readonly jurorEngine?: JudgeDeps['jurorEngine']
}

/**
 * The model a spec is asked with, as its answers are kept: the engine may answer under an id of its own. For a jury
 * (`models:`), the jury's id (`jury:<juror>+<juror>…`), under which its answers are kept. A spec naming no model when
 * there is no default model is a UsageError naming the spec: no other model is ever asked in its place.
 */
export function modelFor(spec: Spec, deps: ModelDeps): string {
  if (hasJury(spec)) return juryModelId(seatedJurors(spec, deps))
  const model = spec.model ?? deps.defaultModel
  if (model === null) throw new UsageError(noModelMessage(spec.name))
  return deps.engine?.modelId?.(model) ?? model
}

/** What is said when a spec naming no model is judged with no default model (ENGINE_MODEL unset, ENGINE=openai). */
function noModelMessage(judgment: string): string {
  return (
    `${judgment} names no model, and ENGINE_MODEL is unset (this engine has no default model): set ENGINE_MODEL to ` +
    "the model the server serves, or name one in the spec (model:, or a jury's models:) (see docs/engine.md)"
  )
}

/** What asks a juror: `deps.jurorEngine`'s for a juror naming an engine, else the configured engine's. */
export function jurorEngineOf(
  deps: ModelDeps & Partial<Pick<JudgeDeps, 'pricePerMtok' | 'governor'>>,
  juror: Juror,
): JurorEngine {
  if (juror.engine !== null && deps.jurorEngine) return deps.jurorEngine(juror)
  const own: JurorEngine = { engine: deps.engine ?? null, pricePerMtok: deps.pricePerMtok ?? 0 }
  return deps.governor ? { ...own, governor: deps.governor } : own
}

// A spec's jurors are seated once per spec and deps: modelFor is read for every row judged.
const seats = new WeakMap<Spec, WeakMap<object, readonly SeatedJuror[]>>()

/** A jury spec's jurors with the model ids their answers are kept under, in the spec's order. */
export function seatedJurors(spec: Spec, deps: ModelDeps): readonly SeatedJuror[] {
  let byDeps = seats.get(spec)
  if (!byDeps) seats.set(spec, (byDeps = new WeakMap()))
  let seated = byDeps.get(deps)
  if (!seated) byDeps.set(deps, (seated = seatJurors(spec.jurors ?? [], (j) => jurorEngineOf(deps, j).engine)))
  return seated
}

/**
 * A UTC timestamp without zone offset, as run records use (docs/http-api.md, `GET /v1/runs`): 2026-11-22T04:31:07.250.
 */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '')
}
