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
  /**
   * Whether the median reaches `min_fit`; false says the question does not fit its rows, null that nothing is known.
   */
  readonly fits: boolean | null
  /** Up to LOWEST_ROWS rows of lowest option mass, lowest first. */
  readonly lowest: readonly FitRow[]
}

/** A run's fit per question name; `{}` for a run recorded before runs kept it. */
export type RunFit = Readonly<Record<string, QuestionFit>>

/**
 * Option masses are counted per ten-thousandth, the precision a fit reports: 10,001 counts (40 kB)
 * a question, whatever the size of the run. The 10th percentile is then exact, and so is the
 * median of masses given to four decimals or fewer; a median of two middle masses with more
 * decimals is within 0.0001 of the exact one (docs/engine.md).
 */
export const MASS_STEPS = 10_000

/** Option masses counted by ten-thousandth: index k holds the masses that round to k / MASS_STEPS. */
export type MassCounts = Uint32Array

/** Counts for no mass yet. */
export function emptyMassCounts(): MassCounts {
  return new Uint32Array(MASS_STEPS + 1)
}

/** Counts one option mass (in [0, 1], as the adapters check) at its ten-thousandth. */
export function countMass(counts: MassCounts, mass: number): void {
  counts[Math.round(Math.min(1, Math.max(0, mass)) * MASS_STEPS)] += 1
}

/** The fit of a question from its answers' option masses, counted, and its lowest rows. */
export function questionFit(
  answers: number,
  masses: MassCounts,
  lowest: readonly FitRow[],
  minFit: number,
): QuestionFit {
  const n = masses.reduce((sum, c) => sum + c, 0)
  if (n === 0) return { answers, known: 0, median: null, p10: null, min_fit: minFit, fits: null, lowest: [] }
  // In ten-thousandths: the mean of the two middle steps of an even count, rounded to a step.
  const median =
    Math.round(n % 2 === 1 ? stepAt(masses, (n - 1) / 2) : (stepAt(masses, n / 2 - 1) + stepAt(masses, n / 2)) / 2) /
    MASS_STEPS
  const p10 = stepAt(masses, Math.max(0, Math.ceil(0.1 * n) - 1)) / MASS_STEPS
  return { answers, known: n, median, p10, min_fit: minFit, fits: median >= minFit, lowest }
}

/** The step of the mass of rank `rank` (0 the lowest) among the counted ones. */
function stepAt(masses: MassCounts, rank: number): number {
  let seen = 0
  for (let step = 0; step < masses.length; step++) {
    seen += masses[step]
    if (seen > rank) return step
  }
  throw new RangeError(`no mass of rank ${rank}`)
}

/** The questions of a run that do not fit their rows (median below `min_fit`), in the run's order. */
export function unfitQuestions(fit: RunFit | undefined): [question: string, fit: QuestionFit][] {
  return Object.entries(fit ?? {}).filter(([, q]) => q.fits === false)
}
