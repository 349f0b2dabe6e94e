import { MIN_REVIEWED, type JuryFit } from './dawid-skene.ts'

/** Figures by people's label (the truth), then by the juror's label: `{ yes: { yes: 0.92, no: 0.08 }, … }`. */
export type ByTruthAndSaid<T> = Readonly<Record<string, Readonly<Record<string, T>>>>

/** One juror's weight in its jury: its fitted accuracy and confusion matrix, with each entry's interval. */
export interface JurorWeights {
  /** The model id its answers are kept under, in the spec's order. */
  readonly model: string
  /** Its fitted accuracy: the prior-weighted chance it says the truth; null while the jury counts votes. */
  readonly accuracy: number | null
  /** P(it says `said` | the truth is `truth`), fitted by Dawid and Skene's EM; null while the jury counts votes. */
  readonly confusion: ByTruthAndSaid<number> | null
  /** Wilson's 95% interval of each confusion entry, from the reviewed rows alone; null while the jury counts votes. */
  readonly intervals: ByTruthAndSaid<readonly [number, number]> | null
}

/** The weights a jury answers one question with: an equal vote, or its jurors weighed by people's verdicts. */
export interface JuryWeights {
  /** 'vote' while fewer than MIN_REVIEWED reviewed rows have every juror's answer; 'jury' after. */
  readonly kind: 'vote' | 'jury'
  /** The reviewed rows some juror answered. */
  readonly reviewed: number
  /** The reviewed rows every juror answered: what MIN_REVIEWED counts. */
  readonly complete: number
  /** The reviewed rows with every juror's answer still wanted before the jury weighs its jurors; 0 once it does. */
  readonly needed: number
  /** Whether the EM stopped because nothing moved (true for a vote). */
  readonly converged: boolean
  /** The EM's iterations (0 for a vote). */
  readonly iterations: number
  /** The fitted share of each label (for a vote, the label mix the equal vote gives over the rows). */
  readonly prior: Readonly<Record<string, number>>
  readonly jurors: readonly JurorWeights[]
}

/**
 * A jury's fit (core/jury/dawid-skene.ts) as its weights are shown: by label rather than label index, each juror
 * named by `models` (the jurors' model ids, in the fit's order), with how many reviewed rows it still wants.
 */
export function juryWeights(fit: JuryFit, models: readonly string[]): JuryWeights {
  if (models.length !== fit.jurors) {
    throw new Error(`juryWeights: the fit has ${fit.jurors} jurors, but ${models.length} models are named`)
  }
  const { labels } = fit
  const byLabel = <T>(values: readonly T[]): Record<string, T> =>
    Object.fromEntries(labels.map((label, i) => [label, values[i]]))
  const matrix = <T>(rows: readonly (readonly T[])[]): ByTruthAndSaid<T> =>
    Object.fromEntries(labels.map((truth, t) => [truth, byLabel(rows[t])]))
  return {
    kind: fit.kind,
    reviewed: fit.reviewed,
    complete: fit.complete,
    needed: fit.kind === 'jury' ? 0 : Math.max(0, MIN_REVIEWED - fit.complete),
    converged: fit.converged,
    iterations: fit.iterations,
    prior: byLabel(fit.prior),
    jurors: models.map((model, j) => ({
      model,
      accuracy: fit.accuracy?.[j] ?? null,
      confusion: fit.confusion ? matrix(fit.confusion[j]) : null,
      intervals: fit.intervals ? matrix(fit.intervals[j]) : null,
    })),
  }
}
