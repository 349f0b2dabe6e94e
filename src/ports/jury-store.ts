/** How many states share one set of jurors' labels on a question: a pattern a jury's fit counts. */
export interface LabelPattern {
  /** Each juror's label, in the order the models were given; null where that juror has no answer. */
  readonly labels: readonly (string | null)[]
  /** The states whose jurors' labels are these. */
  readonly count: number
}

/** What a jury's fit reads of the store: its jurors' labels, counted by pattern (docs/review.md, "A jury"). */
export interface JuryStore {
  /**
   * The patterns of the given models' labels on one question fingerprint over every state at least one of them
   * answered, each with how many states share it; in no particular order. A model listed twice gets its label twice.
   */
  labelPatterns(models: readonly string[], fingerprint: string): LabelPattern[]
}
