import type { Distribution, LabelCount, RunRecord, State } from '../core/types.ts'

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
}

/** Margins from `from` (inclusive) to `below` (exclusive); `below` may be Infinity. */
export interface MarginBand {
  readonly from: number
  readonly below: number
}

/** How many answers of one question share a label, p and margin. */
export interface AnswerCell {
  readonly label: string
  readonly p: number
  readonly margin: number
  readonly count: number
}

/** A row kept by `log: true` for later replay. */
export interface KeptRow {
  readonly judgment: string
  readonly stateHash: string
  readonly state: State
  readonly firstSeen: string
  readonly lastSeen: string
  readonly seen: number
}

/** One shadow comparison: the live and the candidate label of one question for one state. */
export interface ShadowPair {
  readonly liveJudgment: string
  readonly candidateJudgment: string
  /** The candidate's spec hash, so that pairs of an edited candidate are told apart. */
  readonly candidateHash: string
  readonly stateHash: string
  readonly question: string
  readonly liveLabel: string
  readonly candidateLabel: string
  readonly at: string
}

/** A label count of one run, with the run's place in time, for drift. */
export interface RunLabelCount extends LabelCount {
  readonly rows: number
  readonly started_at: string
}

/**
 * The store port: everything the core needs from persistence. Synchronous, because the real
 * adapter (node:sqlite) is, and a cache hit must cost no more than a lookup.
 */
export interface Store {
  /** Cached answers for one state, keyed by question fingerprint; missing keys are absent. */
  getAnswers(model: string, stateHash: string, fingerprints: readonly string[]): Map<string, StoredAnswer>
  /**
   * The fingerprints among those given that the store holds an answer for, for one state: what
   * getAnswers would find, without reading the answers (the plan needs no more).
   */
  answeredFingerprints(model: string, stateHash: string, fingerprints: readonly string[]): Set<string>
  /**
   * Saves answers and the state's values in one transaction, and returns what the store holds for
   * each key given, in order. The first answer written for a key is kept for ever: a later write of
   * the key (another process asking the same row at once) changes nothing and gets the first back.
   */
  putAnswers(answers: readonly StoredAnswer[], stateHash: string, state: State): StoredAnswer[]
  /** The values of states seen before, keyed by state hash; unknown hashes are absent. */
  getStates(stateHashes: readonly string[]): Map<string, State>

  /** Answers of one question (model and fingerprint) for the given states. */
  answersForStates(model: string, fingerprint: string, stateHashes: readonly string[]): StoredAnswer[]
  /**
   * The first `limit` answers of one question in a fixed pseudo-random order, seeded by
   * judgment, question and state hash, so that the order never changes as rows are reviewed;
   * with `band`, only the answers whose margin lies in it (one stratum of the review sample).
   */
  sampleAnswers(model: string, fingerprint: string, judgment: string, question: string, limit: number, band?: MarginBand): StoredAnswer[]
  /** How many answers the store holds for one question; with `band`, those whose margin lies in it. */
  countAnswers(model: string, fingerprint: string, band?: MarginBand): number
  /** Every answer of one question, counted by label, p and margin: the population the estimates weigh. */
  answerCells(model: string, fingerprint: string): AnswerCell[]

  /** Records a finished run with its per-question label counts, in one transaction. */
  recordRun(run: RunRecord, counts: readonly LabelCount[]): void
  /** Runs of the given judgments, newest first. */
  listRuns(judgments: readonly string[], limit: number): RunRecord[]
  /** Label counts of every run of one judgment, oldest run first. */
  runLabelCounts(judgment: string): RunLabelCount[]

  /** Keeps a row for replay: inserts it or bumps its last-seen time and count. */
  keepRow(judgment: string, stateHash: string, state: State, at: string): void
  /** Rows kept for one judgment, in the order first seen. */
  keptRows(judgment: string): KeptRow[]

  /** Records shadow pairs (live label, candidate label) of one row. */
  recordShadow(pairs: readonly ShadowPair[]): void
  /** Shadow pairs recorded for one live judgment. */
  shadowPairs(liveJudgment: string): ShadowPair[]

  /** Releases the underlying resources. */
  close(): void
}
