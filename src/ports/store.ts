import type { Distribution, LabelCount, ModelCheck, RunRecord, RunState, State } from '../core/types.ts'

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

/** A label count of one run, with the run's place in time and provenance, for drift. */
export interface RunLabelCount extends LabelCount {
  readonly rows: number
  readonly started_at: string
  readonly status: string
  readonly command: string
  readonly source: string
  readonly reported_model: string
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

/** One question of a shadow candidate seen by the server, so that its answers count as in use. */
export interface CandidateQuestion {
  readonly judgment: string
  readonly specHash: string
  readonly question: string
  readonly fingerprint: string
  readonly seenAt: string
}

/** When a paced key may send, as reserved by reservePace. */
export interface PaceSlot {
  /** Milliseconds since the epoch. */
  readonly at: number
  /** False when `at` was later than the caller would wait: nothing was reserved. */
  readonly reserved: boolean
}

/** One day's engine spend of one source (such as the server). */
export interface DaySpend {
  /** The UTC day, YYYY-MM-DD. */
  readonly day: string
  readonly cost: number // USD
  readonly requests: number
}

/**
 * The store port: everything the core needs from persistence. Synchronous, because the real
 * adapter (node:sqlite) is, and a cache hit must cost no more than a lookup.
 */
export interface Store {
  /** Cached answers for one state, keyed by question fingerprint; missing keys are absent. */
  getAnswers(model: string, stateHash: string, fingerprints: readonly string[]): Map<string, StoredAnswer>
  /** The fingerprints given that the store holds an answer for, for one state, without reading the answers (all a plan needs). */
  answeredFingerprints(model: string, stateHash: string, fingerprints: readonly string[]): Set<string>
  /**
   * Saves answers and the state's values in one transaction; returns what the store holds for each
   * key given, in order. The first answer of a key stands for ever: a later write gets it back.
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

  /** Records a run with its label counts and the states it judged, in one transaction; again replaces them. */
  recordRun(run: RunRecord, counts: readonly LabelCount[], states?: Iterable<RunState>): void
  /** Runs of the given judgments, newest first. */
  listRuns(judgments: readonly string[], limit: number): RunRecord[]
  /** The newest run of every judgment the store has runs of. */
  latestRuns(): RunRecord[]
  /** Label counts of every run of one judgment, oldest run first. */
  runLabelCounts(judgment: string): RunLabelCount[]
  /** One run by its id, or null. */
  getRun(runId: string): RunRecord | null
  /** Up to `limit` states of a run in hash order from the first at or after `from`, wrapping round: a random `from` samples. */
  runStates(runId: string, from: string, limit: number): RunState[]
  /** Up to `limit` states of a run in hash order, skipping the first `offset`: a page of its rows. */
  runStatesPage(runId: string, offset: number, limit: number): RunState[]
  /** How many states of a run the store holds: its `states`, or 0 once its row list is pruned. */
  runStateCount(runId: string): number
  /** Deletes the row lists (states) of the given runs in one transaction, nothing else; returns the states deleted. */
  deleteRunStates(runIds: readonly string[]): number
  /** Whether two runs judged exactly the same states, each on as many rows. */
  sameRunStates(a: string, b: string): boolean
  /** Records the model check of a run, replacing any earlier one of that run. */
  recordModelCheck(check: ModelCheck): void
  /** The model checks of one judgment's runs, oldest run first. */
  modelChecks(judgment: string): ModelCheck[]

  /** Every answer group of the store, by judgment, question, model and fingerprint. */
  answerGroups(): AnswerGroup[]
  /** Deletes the answers of one group; returns how many were deleted. */
  deleteAnswers(group: Pick<AnswerGroup, 'judgment' | 'question' | 'model' | 'fingerprint'>): number

  /** Keeps a row for replay: inserts it or bumps its last-seen time and count. */
  keepRow(judgment: string, stateHash: string, state: State, at: string): void
  /** Rows kept for one judgment, in the order first seen. */
  keptRows(judgment: string): KeptRow[]

  /** Records shadow pairs (live, candidate label) of one row and the candidate's questions (their last-seen time), in one transaction. */
  recordShadow(pairs: readonly ShadowPair[], candidate?: readonly CandidateQuestion[]): void
  /** Shadow pairs recorded for one live judgment. */
  shadowPairs(liveJudgment: string): ShadowPair[]
  /** Every question of every shadow candidate seen. */
  candidateQuestions(): CandidateQuestion[]

  /**
   * Reserves when a paced key (an engine) may next send: the later of `now` and the time the key
   * is free, which then moves on by `spacingMs`. When that time is after `latest`, nothing is
   * reserved. Every process sharing the store shares the key, so that together they keep one
   * pace. Times are milliseconds since the epoch.
   */
  reservePace(key: string, now: number, spacingMs: number, latest: number): PaceSlot
  /** Holds a paced key back until `until` (a rate limit's Retry-After); an earlier hold is kept if later. */
  holdPace(key: string, until: number): void

  /** Adds engine spend to one day of one source. */
  addSpend(day: string, source: string, cost: number, requests: number): void
  /** The spend of one source per day, newest day first, at most `limit` days. */
  spendByDay(source: string, limit: number): DaySpend[]

  /** Releases the underlying resources. */
  close(): void
}
