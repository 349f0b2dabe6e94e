import type { Distribution, ProbabilitySource, SourceCounts, State } from '../core/types.ts'

/** One cached answer: the engine's distribution for a (model, question fingerprint, state) key. */
export interface StoredAnswer {
  readonly model: string
  readonly fingerprint: string
  readonly stateHash: string
  /** Judgment and question that first asked it (informational; not part of the key). */
  readonly judgment: string
  readonly question: string
  readonly distribution: Distribution
  readonly label: string
  readonly p: number
  readonly margin: number
  /** UTC timestamp without zone offset. */
  readonly askedAt: string
  /**
   * The model the engine reported for this answer: `model` is the one asked (the cache key), and
   * an alias such as `jev-latest` may be answered by another model from one day to the next.
   * Stores always give it; absent in an answer to be written, it is the model asked.
   */
  readonly reportedModel?: string
  /**
   * The share of the model's next-token probability on the question's labels (docs/engine.md);
   * null when the engine gave none. Stores always give it; absent in an answer to be written, null.
   */
  readonly optionMass?: number | null
  /**
   * How p was obtained (PROBABILITY_SOURCES); null for an answer stored before the store kept it (schema 18). Stores
   * always give it; absent in an answer to be written, `distribution`.
   */
  readonly source?: ProbabilitySource | null
  /**
   * With source `samples` or `text`: how many answers the distribution is the share of (k); null otherwise. Stores
   * always give it; absent in an answer to be written, null.
   */
  readonly samples?: number | null
  /**
   * A jury's answer (source `vote` or `jury`): how many jurors named another label than the jury's, 0 when they all
   * agreed; null for one model's answer. Rows with a dissent above 0 are the review's `split` stratum. Stores always
   * give it; absent in an answer to be written, null.
   */
  readonly dissent?: number | null
}

/**
 * How finely the answers of a question are counted: `grid` by label and the hundredths cells of p
 * and margin (core/tally/grid.ts; the store's running tally, read at once), `exact` by label and
 * each value of p and margin (a read of every answer).
 */
export type CellResolution = 'grid' | 'exact'

/** Margins from `from` (inclusive) to `below` (exclusive); `below` may be Infinity. */
export interface MarginBand {
  readonly from: number
  readonly below: number
  /**
   * true: only a jury's answers some juror dissented from (dissent above 0, the `split` stratum); false: only the
   * others (one model's answers, and a jury's unanimous ones); absent: any.
   */
  readonly split?: boolean
}

/**
 * How many answers of one question share a label, p and margin; or, in a cell of the grid
 * (core/tally/grid.ts), a label and the hundredths cells of p and margin, whose `p` and `margin`
 * are the values that stand for the cell.
 */
export interface AnswerCell {
  readonly label: string
  readonly p: number
  readonly margin: number
  readonly count: number
  /** The cell's p summed over its answers, in nanos; absent when every answer of the cell has p itself. */
  readonly pNanos?: number
  /** Whether the cell's answers are a jury's that some juror dissented from (the `split` stratum); absent: false. */
  readonly split?: boolean
}

/** The answers the store holds for one (judgment, question, model, fingerprint), with their age. */
export interface AnswerGroup {
  /** Judgment and question that first asked these answers. */
  readonly judgment: string
  readonly question: string
  readonly model: string
  readonly fingerprint: string
  readonly answers: number
  /** When the oldest and newest of them were asked. */
  readonly oldest: string
  readonly newest: string
}

/**
 * The answer cache and the values of the states answered: what judging looks up and writes, what
 * the review queue and the accuracy estimate read, and what `judge cache` lists and prunes.
 * Synchronous, because the real adapter (node:sqlite) is, and a cache hit must cost no more than a lookup.
 */
export interface AnswerStore {
  /** Cached answers for one state, keyed by question fingerprint; missing keys are absent. */
  getAnswers(model: string, stateHash: string, fingerprints: readonly string[]): Map<string, StoredAnswer>
  /**
   * The fingerprints given that the store holds an answer for, for one state, without reading the answers (all a plan
   * needs).
   */
  answeredFingerprints(model: string, stateHash: string, fingerprints: readonly string[]): Set<string>
  /**
   * Saves answers and the state's values in one transaction; returns what the store holds for each
   * key given, in order. The first answer of a key stands for ever: a later write gets it back.
   */
  putAnswers(answers: readonly StoredAnswer[], stateHash: string, state: State): StoredAnswer[]
  /**
   * Replaces the answers of the keys given (model, fingerprint, state) with these, and saves the state's values, in
   * one transaction: what re-weighing a jury's answers writes. A key the store lacks is added. The answer counts follow
   * (the old answer counted out, the new in). Returns what the store holds for each key given, in order.
   */
  replaceAnswers(answers: readonly StoredAnswer[], stateHash: string, state: State): StoredAnswer[]
  /** The values of states seen before (answered or kept), keyed by state hash; unknown hashes are absent. */
  getStates(stateHashes: readonly string[]): Map<string, State>

  /** Answers of one question (model and fingerprint) for the given states. */
  answersForStates(model: string, fingerprint: string, stateHashes: readonly string[]): StoredAnswer[]
  /**
   * The labels of one model's answers to the given question fingerprints for the given states, by
   * fingerprint and then state hash (missing ones absent): what the accuracy scores, read with one
   * search per state for all its questions.
   */
  answerLabels(
    model: string,
    fingerprints: readonly string[],
    stateHashes: readonly string[],
  ): Map<string, Map<string, string>>
  /**
   * The first `limit` answers of one question in a fixed pseudo-random order, seeded by
   * judgment, question and state hash, so that the order never changes as rows are reviewed;
   * with `band`, only the answers whose margin lies in it (one stratum of the review sample).
   */
  sampleAnswers(
    model: string,
    fingerprint: string,
    judgment: string,
    question: string,
    limit: number,
    band?: MarginBand,
  ): StoredAnswer[]
  /** How many answers the store holds for one question; with `band`, those whose margin lies in it. */
  countAnswers(model: string, fingerprint: string, band?: MarginBand): number
  /**
   * Every answer of one question, counted by label, p and margin (`exact`) or by label and the grid's
   * cells (`grid`, the same as gridCells of the exact cells): the population the estimates weigh.
   * In order of label, p and margin.
   */
  answerCells(model: string, fingerprint: string, resolution: CellResolution): AnswerCell[]
  /**
   * How many answers the store holds to any of the given question fingerprints, by model: every model with at least
   * one. Read from the counts the store keeps, never by reading the answers: what a report says of the models it could
   * read.
   */
  modelAnswerCounts(fingerprints: readonly string[]): Map<string, number>
  /**
   * How many answers of one question the store holds by how their p was obtained; answers stored before the store kept
   * it are left out. What a page reads to say that a question was answered from text alone.
   */
  countSources(model: string, fingerprint: string): SourceCounts

  /** Every answer group of the store, by judgment, question, model and fingerprint. */
  answerGroups(): AnswerGroup[]
  /** Deletes the answers of one group; returns how many were deleted. */
  deleteAnswers(group: Pick<AnswerGroup, 'judgment' | 'question' | 'model' | 'fingerprint'>): number
}
