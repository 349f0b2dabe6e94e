/**
 * What forgetting removes from the store: the values of states, the rows kept for replay of states
 * (of every judgment), and one judgment's kept rows last seen before a time. A kept row holds no
 * values, but it would offer its row for replay again whenever the values came back.
 */
export interface ForgetPlan {
  /** States whose values go. */
  readonly values: readonly string[]
  /** States whose kept rows go, whatever their judgment. */
  readonly records: readonly string[]
  /** A judgment's kept rows last seen before `before`. */
  readonly stale?: { readonly judgment: string; readonly before: string }
}

/** What the store holds, or held, of one state among what a plan removes. */
export interface HeldState {
  readonly stateHash: string
  /** Whether its values are (were) stored. */
  readonly values: boolean
  readonly keptRows: number
}

/** Who forgot, and when: written to the forget log beside each state forgotten, never with its values. */
export interface ForgetLogStamp {
  /** UTC timestamp without zone offset. */
  readonly at: string
  /** How it was asked for: `judge forget --row`, `POST /v1/forget`, `retain_days 30 of spam (server)`. */
  readonly command: string
}

/** One line of the forget log: what of one state went from one place. */
export interface ForgottenLine extends ForgetLogStamp {
  readonly stateHash: string
  /** `values`, `kept rows`, or `reviews file <path>`. */
  readonly place: string
  readonly count: number
}

/** What a plan removed: per state, and whether the write-ahead log was emptied after. */
export interface Forgotten {
  readonly states: readonly HeldState[]
  /** False when another process kept reading from the log: old copies may remain in it until the next forgetting. */
  readonly logCleared: boolean
}

/**
 * Forgetting rows: finding the states that hold a value or have outlived a retention, removing
 * what a plan names so that the bytes are gone from the file and its log, and the forget log of it.
 * Answers, shadow pairs, runs and their row lists hold no values (hashes, labels, counts) and are
 * never touched, so that every figure made from them stays.
 */
export interface ForgetStore {
  /** What the store holds of what a plan removes, per state holding anything, in hash order: a dry run. */
  heldFor(plan: ForgetPlan): HeldState[]
  /**
   * Removes what the plan names in one transaction, and every review hold on the plan's `values` states (a hold keeps
   * no values, but its row is offered no more), with a forget log line per state and place (the
   * write mark moves: a server drops what it kept from before), then folds the
   * log into the file and empties it. Deleted bytes are overwritten, not left in free pages.
   */
  forget(plan: ForgetPlan, stamp: ForgetLogStamp): Forgotten
  /** The states whose values hold exactly `value` in `column`, in hash order. */
  statesWhere(column: string, value: string): string[]
  /**
   * The states whose values were last stored before `before` and that `judgment` kept or that were
   * answered under one of `fingerprints` (any model): what its retention forgets. In hash order.
   */
  expiredStates(judgment: string, fingerprints: readonly string[], before: string): string[]
  /** Adds lines to the forget log (what went from files: reviews files). */
  recordForgotten(lines: readonly ForgottenLine[]): void
  /** The forget log, in the order written. */
  forgottenLines(): ForgottenLine[]
}
