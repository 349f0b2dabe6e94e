/** A row of a judgment's queue held for one reviewer (docs/review.md, Leases). */
export interface HeldRow {
  readonly question: string
  readonly stateHash: string
  readonly reviewer: string
  /** When the hold ends: milliseconds since the epoch. */
  readonly until: number
  /**
   * The card as it was offered when taken, as JSON text without the row's values (read again when it is shown): it
   * stays offered so to its reviewer.
   */
  readonly card: string
}

/** A row asked to be held: which, and its card as JSON text, without the row's values. */
export interface RowToHold {
  readonly question: string
  readonly stateHash: string
  readonly card: string
}

/**
 * Holds on review rows, shared by every process on one store, so that reviewers working one queue
 * through several workers, servers or scripts are never shown the same card at once.
 */
export interface LeaseStore {
  /** The rows of a judgment held at `now`, in the order each reviewer took them. */
  heldRows(judgment: string, now: number): HeldRow[]
  /**
   * Releases every row `reviewer` holds on the judgment, then holds `rows` for them until `until`,
   * in order, in one write, until `most` are taken: a row held by another reviewer at `now` is
   * passed over. Returns the rows taken, as `question\0state_hash`.
   */
  holdRows(
    judgment: string,
    reviewer: string,
    rows: readonly RowToHold[],
    now: number,
    until: number,
    most: number,
  ): Set<string>
  /** Releases the hold on one row, whoever holds it (a verdict was given on it). */
  releaseRow(judgment: string, question: string, stateHash: string): void
  /** Releases every row a reviewer holds on the judgment (an undo). */
  releaseReviewer(judgment: string, reviewer: string): void
}
