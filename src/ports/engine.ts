import type { Distribution, Question, State } from '../core/types.ts'

/** What the core asks of the engine: one row and judgment, every uncached question at once. */
export interface EngineRequest {
  readonly model: string
  readonly state: State
  readonly questions: readonly Question[]
}

/** The engine's answer: a distribution per question over that question's labels. */
export interface EngineResult {
  /** The model that answered, as the engine reports it. */
  readonly model: string
  /** Keyed by question name; each distribution is keyed by the question's labels. */
  readonly distributions: Readonly<Record<string, Distribution>>
  readonly inputTokens: number
  readonly outputTokens: number
  /** HTTP requests it took; 1 when absent. */
  readonly requests?: number
  /** The engine's id of the request that answered (System One's `x-typesafe-request-id`), when it sent one. */
  readonly requestId?: string
  /** Per question name, what the engine said beyond the distribution; absent where it said nothing more. */
  readonly facts?: Readonly<Record<string, AnswerFacts>>
}

/**
 * What an engine said of one answer beside its distribution: each field only when the engine gave it, never made up.
 */
export interface AnswerFacts {
  /** The engine's confidence in its choice, 0 to 1 (System One's `confidence` of a choice or score). */
  readonly confidence?: number
  /** The calibration temperature the engine applied to the probabilities. */
  readonly temperature?: number
  /**
   * The share of the model's next-token probability that fell on the offered labels, 0 to 1: a low
   * value means the model wanted to answer something else, so the question does not fit the row.
   */
  readonly optionMass?: number
}

/** A model an engine lists. */
export interface ListedModel {
  /** The name a spec's `model:` takes. */
  readonly name: string
  readonly description: string | null
  /** As the engine gives it (a date or a timestamp), or null. */
  readonly releaseDate: string | null
}

/** What asking a request will take, known before asking: for the cost cap, `judge plan` and the pace. */
export interface EngineEstimate {
  readonly inputTokens: number
  /** HTTP requests the engine sends for it. */
  readonly requests: number
}

/** The engine port: a decision model that answers questions about a state. */
export interface Engine {
  /** The model asked when neither the spec nor the configuration names one. */
  readonly defaultModel: string
  /**
   * The id this engine's answers for a requested model are stored and recorded under; the
   * requested model itself when absent. A stand-in engine answers under ids of its own, so that
   * its answers never share a cache key with a real model's.
   */
  readonly modelId?: (model: string) => string
  /**
   * Asks every question of the request; rejects with an EngineError after its retries. The
   * error says whether asking again later may help (`transient`) and any wait the engine asked for.
   */
  ask(request: EngineRequest, signal?: AbortSignal): Promise<EngineResult>
  /**
   * True for an engine that charges nothing (the simulated one): its costs are what System One
   * would have charged for the same tokens, and no spend cap refuses it.
   */
  readonly spendsNothing?: boolean
  /** The estimate before asking; without it, System One's published fit and one request. */
  estimate?(request: EngineRequest): EngineEstimate
  /**
   * The models the engine lists now, asking nothing of them; rejects with an EngineError. Absent
   * for an engine that keeps no list (one passed in code may have none).
   */
  models?(signal?: AbortSignal): Promise<ListedModel[]>
}
