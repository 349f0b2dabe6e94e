import type { Distribution } from '../core/types.ts'

/**
 * One re-ask of a stored answer, kept apart from the answer cache: the answer the store holds (as
 * it stood when asked again), the engine's second answer, and the stratum the state was drawn
 * from with the stratum's size and sample, so that the figures can be weighed again later.
 */
export interface Reask {
  /** The stability check that asked it (one `judge stability` of one judgment); checks sort by it. */
  readonly check: string
  readonly judgment: string
  readonly question: string
  readonly model: string
  readonly fingerprint: string
  readonly stateHash: string
  /** `unsure` or `confident`, by the stored answer's margin against the spec's `unsure_below`. */
  readonly stratum: string
  /** Answers in the stratum when it was drawn (N_h), and how many of them were drawn (n_h). */
  readonly stratumSize: number
  readonly stratumSampled: number
  /** The stored answer's label, p and margin. */
  readonly storedLabel: string
  readonly storedP: number
  readonly storedMargin: number
  /** The engine's second answer. */
  readonly distribution: Distribution
  readonly label: string
  readonly p: number
  readonly margin: number
  /** UTC timestamp without zone offset. */
  readonly askedAt: string
  readonly reportedModel: string
  /**
   * k, when the second answer was not asked but read from the k draws the stored answer already holds (its source
   * `samples`): the chance a fresh draw names another label is then 1 - p (docs/engine.md, Stability). Stores always
   * give it, null for an answer asked again; absent in a re-ask to be written, null.
   */
  readonly samples?: number | null
}

/**
 * The re-asks of stability checks (docs/engine.md, Stability): added, never read by judging, never
 * a cached answer. Each check's re-asks of a question are read together, the latest check first.
 */
export interface ReaskStore {
  /** Keeps re-asks; a re-ask of the same check, question and state already kept is left as it is. */
  addReasks(reasks: readonly Reask[]): void
  /** The re-asks of the latest check of one question (model and fingerprint), or none. */
  latestReasks(model: string, fingerprint: string): Reask[]
}
