import type { State } from '../core/types.ts'

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

/** One question of a shadow candidate seen by the server, so that its answers count as in use. */
export interface CandidateQuestion {
  readonly judgment: string
  readonly specHash: string
  readonly question: string
  readonly fingerprint: string
  readonly seenAt: string
}

/**
 * What the server keeps of its traffic to try candidates on: rows kept for replay, shadow
 * comparisons, and the questions of the shadow candidates seen.
 */
export interface KeptStore {
  /** Keeps a row for replay: inserts it or bumps its last-seen time and count; its state's values are kept too. */
  keepRow(judgment: string, stateHash: string, state: State, at: string): void
  /** Rows kept for one judgment, in the order first seen. */
  keptRows(judgment: string): KeptRow[]

  /**
   * Records shadow pairs (live, candidate label) of one row and the candidate's questions (their last-seen time), in
   * one transaction.
   */
  recordShadow(pairs: readonly ShadowPair[], candidate?: readonly CandidateQuestion[]): void
  /** Shadow pairs recorded for one live judgment. */
  shadowPairs(liveJudgment: string): ShadowPair[]
  /** Every question of every shadow candidate seen. */
  candidateQuestions(): CandidateQuestion[]
}
