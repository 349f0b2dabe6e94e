import type { Distribution, ProbabilitySource, Question, State } from '../core/types.ts'

/** What the core asks of the engine: one row and judgment, every uncached question at once. */
export interface EngineRequest {
  readonly model: string
  readonly state: State
  readonly questions: readonly Question[]
  /**
   * k: how many times to ask each question when the model gives no probabilities, at a temperature above 0, p being
   * the label's share of the k answers; 1 asks once and takes the text's label at probability 1. Absent: the engine's
   * setting (ENGINE_SAMPLES). An engine that gives probabilities asks once whatever k is.
   */
  readonly samples?: number
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
  /** How the distribution was obtained; absent: `distribution`, the engine's own (System One, the simulated engine). */
  readonly source?: ProbabilitySource
  /** With source `samples` or `text`: the answers the distribution is the share of (k). */
  readonly samples?: number
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

/** One request of a batch: a row and judgment's uncached questions, and the key that finds its answer again. */
export interface BatchItem {
  /**
   * Unique within a batch, [A-Za-z0-9_-]{1,48}: the app's id of the item (e.g. a hash of model, state hash and
   * fingerprints).
   */
  readonly key: string
  readonly request: EngineRequest
}

/** A part of a bulk submission that fits one provider batch: its items and the provider's file text (JSONL). */
export interface BatchPack {
  readonly items: readonly BatchItem[]
  /** Provider requests it holds (OpenAI: one per question of each item). */
  readonly lines: number
  /** Bytes of its provider lines, as the provider's limit counts them; the text itself is written at its upload. */
  readonly bytes: number
}

/** The provider's status of a batch. */
export type BatchState =
  | 'validating'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'cancelling'
  | 'cancelled'

/** A batch as the provider reports it. */
export interface BatchStatus {
  readonly id: string
  readonly state: BatchState
  /** The provider's request counts. */
  readonly total: number
  readonly completed: number
  readonly failed: number
  readonly inputFileId: string
  readonly outputFileId: string | null
  readonly errorFileId: string | null
  /** The tag judge gave it at creation (metadata `judge_batch`), or null. */
  readonly tag: string | null
  /** Provider's errors of the batch itself (a failed batch), as one line; null when none. */
  readonly error: string | null
}

/** What became of one item of a finished batch. */
export type BatchOutcome =
  | { readonly key: string; readonly ok: true; readonly result: EngineResult }
  | { readonly key: string; readonly ok: false; readonly reason: string }

/** The bulk lane of an engine whose provider has a batch API (OpenAI's Batch API, Anthropic's Message Batches). */
export interface BatchLane {
  /**
   * Splits items into packs by the provider's limits on requests and bytes per batch (all of an item's questions stay
   * in one pack). A pack holds no text, so that a submission's packs never hold every request's text at once.
   */
  pack(items: readonly BatchItem[]): BatchPack[]
  /**
   * Writes a pack's text, one provider line per provider request (OpenAI: one per question), each request exactly the
   * per-request lane's body, and uploads it (OpenAI: POST {url}/files, purpose=batch): the file id.
   */
  upload(pack: BatchPack, signal?: AbortSignal): Promise<string>
  /**
   * Creates the batch over an uploaded file, tagged `tag` in its metadata (OpenAI: POST {url}/batches, endpoint
   * /v1/chat/completions, completion_window 24h).
   */
  create(fileId: string, tag: string, signal?: AbortSignal): Promise<BatchStatus>
  /** The batch now (GET {url}/batches/{id}). */
  retrieve(id: string, signal?: AbortSignal): Promise<BatchStatus>
  /**
   * The batch created with `tag`, if any, found through the provider's list (GET {url}/batches, paging as needed):
   * recovery after a crash between create and recording.
   */
  find(tag: string, signal?: AbortSignal): Promise<BatchStatus | null>
  /** Asks the provider to cancel (POST {url}/batches/{id}/cancel). */
  cancel(id: string, signal?: AbortSignal): Promise<BatchStatus>
  /**
   * Reads a finished batch's output and error files and gives each item's outcome, parsed by the same code as a
   * per-request answer; an item any of whose questions failed or expired is an outcome with ok false and the reason
   * (e.g. "expired", "failed: <code> <message>"); items missing from both files are ok false "missing".
   */
  collect(status: BatchStatus, items: readonly BatchItem[], signal?: AbortSignal): Promise<BatchOutcome[]>
}

/** The engine port: a decision model that answers questions about a state. */
export interface Engine {
  /** The model asked when neither the spec nor the configuration names one; null when the engine names none. */
  readonly defaultModel: string | null
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
   * Told that `model`'s stored answers were sampled (source `samples`, none `logprobs`): it sends no log
   * probabilities, so the engine samples it from its first request and counts k in its estimate, as once it has
   * learnt that itself. Absent for an engine that never learns it (one that gives probabilities, or samples always).
   */
  knownWithout?(model: string): void
  /**
   * The models the engine lists now, asking nothing of them; rejects with an EngineError. Absent
   * for an engine that keeps no list (one passed in code may have none).
   */
  models?(signal?: AbortSignal): Promise<ListedModel[]>
  /** The bulk lane at the provider's batch price; absent for an engine whose provider has no batch API. */
  readonly batch?: BatchLane
}
