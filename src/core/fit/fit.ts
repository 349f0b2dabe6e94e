/**
 * The median option mass below which a run says a question does not fit its rows, when the spec
 * sets no `min_fit`: under half of the model's next-token probability on the offered labels means
 * that, for a typical row, the model would rather have answered something else.
 */
export const DEFAULT_MIN_FIT = 0.5

/** Rows of lowest option mass a run's fit names per question. */
export const LOWEST_ROWS = 3

/** One row of a run named for its low option mass. */
export interface FitRow {
  readonly state_hash: string
  readonly option_mass: number
  /** The row's values, added where it is shown (the store holds them); absent in the run record. */
  readonly state?: Readonly<Record<string, string>> | null
}

/** How well one question of a run fits its rows, from the option mass of its answers. */
export interface QuestionFit {
  /** Answers of the question in the run: one per distinct state. */
  readonly answers: number
  /** Of them, those whose engine gave an option mass (answers stored before it was kept have none). */
  readonly known: number
  /** Median option mass of the known ones; null when none is known. */
  readonly median: number | null
  /** The low tail: the 10th percentile of the known ones (nearest rank); null when none is known. */
  readonly p10: number | null
  /** The threshold in force when the run was recorded: the spec's `min_fit`. */
  readonly min_fit: number
  /** Whether the median reaches `min_fit`; false says the question does not fit its rows, null that nothing is known. */
  readonly fits: boolean | null
  /** Up to LOWEST_ROWS rows of lowest option mass, lowest first. */
  readonly lowest: readonly FitRow[]
}

/** A run's fit per question name; `{}` for a run recorded before runs kept it. */
export type RunFit = Readonly<Record<string, QuestionFit>>

/** The fit of a question from its answers' option masses (`values`, any order) and its lowest rows. */
export function questionFit(answers: number, values: readonly number[], lowest: readonly FitRow[], minFit: number): QuestionFit {
  const sorted = Float64Array.from(values).sort()
  const n = sorted.length
  if (n === 0) return { answers, known: 0, median: null, p10: null, min_fit: minFit, fits: null, lowest: [] }
  const median = round(n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2)
  const p10 = round(sorted[Math.max(0, Math.ceil(0.1 * n) - 1)])
  return { answers, known: n, median, p10, min_fit: minFit, fits: median >= minFit, lowest }
}

/** The questions of a run that do not fit their rows (median below `min_fit`), in the run's order. */
export function unfitQuestions(fit: RunFit | undefined): [question: string, fit: QuestionFit][] {
  return Object.entries(fit ?? {}).filter(([, q]) => q.fits === false)
}

function round(value: number): number {
  return Math.round(value * 1e4) / 1e4
}
