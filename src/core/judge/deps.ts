import type { Engine } from '../../ports/engine.ts'
import type { AnswerStore, StoredAnswer } from '../../ports/answer-store.ts'
import type { PaceStore } from '../../ports/pace-store.ts'
import type { Governor, PatienceName } from '../pacing/governor.ts'
import type { Spec } from '../types.ts'
import type { SpendMeter } from './daily-spend.ts'
import type { Ledger } from './ledger.ts'

/** The ports and settings the judge operation works with. */
export interface JudgeDeps {
  /** The answers looked up and written, and the engine spend counted against a daily cap. */
  readonly store: AnswerStore & PaceStore
  /** Null when no engine key is configured: only answers the store holds can be given. */
  readonly engine: Engine | null
  /** The model asked when a spec names none. */
  readonly defaultModel: string
  readonly pricePerMtok: number
  /** Engine requests in flight for this store, so that identical rows ask once per store. */
  readonly inflight: Map<string, Promise<Asked>>
  /** Paces and retries the engine for this store; without one the engine is asked directly. */
  readonly governor?: Governor
  readonly now: () => Date
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
}

/** The model a spec is asked with, as its answers are kept: the engine may answer under an id of its own. */
export function modelFor(
  spec: Spec,
  deps: Pick<JudgeDeps, 'defaultModel'> & { readonly engine?: Engine | null },
): string {
  const model = spec.model ?? deps.defaultModel
  return deps.engine?.modelId?.(model) ?? model
}

/**
 * A UTC timestamp without zone offset, as run records use (docs/http-api.md, `GET /v1/runs`): 2026-11-22T04:31:07.250.
 */
export function timestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '')
}
