import { LOWEST_ROWS, countMass, emptyMassCounts, questionFit, type FitRow, type QuestionFit } from './fit.ts'

/** Counts one question's option masses over a pass, one per distinct state, for its run's fit. */
export interface FitTally {
  /** Counts the answer of a state seen for the first time in the pass; null when its mass is unknown. */
  add(stateHash: string, optionMass: number | null | undefined): void
  /** The question's fit against `minFit`. */
  fit(minFit: number): QuestionFit
}

/** A new, empty tally: 40 kB, however many masses it counts (MASS_STEPS). */
export function createFitTally(): FitTally {
  const masses = emptyMassCounts()
  let lowest: FitRow[] = []
  let answers = 0
  return {
    add(stateHash, optionMass) {
      answers += 1
      if (optionMass === null || optionMass === undefined) return
      countMass(masses, optionMass)
      if (lowest.length === LOWEST_ROWS && optionMass > lowest[LOWEST_ROWS - 1].option_mass) return
      // Rows finish in any order under concurrency; the hash breaks ties so that the rows named are the same every
      // time.
      lowest = [...lowest, { state_hash: stateHash, option_mass: optionMass }]
        .sort((a, b) => a.option_mass - b.option_mass || (a.state_hash < b.state_hash ? -1 : 1))
        .slice(0, LOWEST_ROWS)
    },
    fit: (minFit) => questionFit(answers, masses, lowest, minFit),
  }
}
