/** The records of reports over runs: model checks, label counts and drift entries. */

/** How often an old and a new model gave a pair of labels to one question on the same rows. */
export interface ModelPair {
  readonly question: string
  readonly old_label: string
  readonly new_label: string
  readonly rows: number
}

/**
 * What judging the same rows under a run's newly reported model showed: the rows of the baseline
 * run (a sample of its states, or the spec's anchors) with each question's label under both models.
 */
export interface ModelCheck {
  readonly run_id: string
  /** The run compared against: the previous complete run of the same command and source. */
  readonly baseline: string
  readonly old_model: string
  readonly new_model: string
  /** Where the rows came from: `sample` of the baseline's states, or `anchors`. */
  readonly rows_from: 'sample' | 'anchors'
  /** States judged under both models. */
  readonly states: number
  /** True when the two runs judged exactly the same states, each on as many rows. */
  readonly same_rows: boolean
  /** Why fewer states were compared than wanted ("" when none: all, or the sample size, were). */
  readonly stopped: string
  /** Answers asked of the engine for the check, and their cost in USD. */
  readonly asked: number
  readonly cost: number
  readonly pairs: readonly ModelPair[]
}

/** Count of rows per label for one question of one run. */
export interface LabelCount {
  readonly run_id: string
  readonly question: string
  readonly label: string
  readonly count: number
  /** Distinct states among those rows; null (or left out) when not counted, as for runs recorded before they were. */
  readonly states?: number | null
  /**
   * The sum over those states of their rows squared (Σ m²): how repeated the rows are (core/stats/design-effect.ts);
   * null as `states`.
   */
  readonly squares?: number | null
}

/** A drift entry (docs/http-api.md, `GET /v1/drift`); `p_value` and `significant`: core/stats/mix-test.ts. */
export interface DriftEntry {
  readonly run_id: string
  readonly rows: number
  readonly shares: Record<string, number>
  readonly change: number | null
  readonly alert: boolean
  readonly p_value: number | null
  readonly significant: boolean
}
