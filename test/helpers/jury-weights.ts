import type { JuryWeights } from '../../src/core/jury/jury-weights.ts'

/** A labeller's figures without compared rows. */
export const NO_ROWS = { rows: 0, correct: 0, accuracy: null, interval: null } as const

/** An equal vote of jurors named `models`, 12 reviewed rows short of weighing them (18 of 30 so far). */
export function voteWeights(models: readonly string[]): JuryWeights {
  return {
    kind: 'vote',
    reviewed: 19,
    complete: 18,
    needed: 12,
    converged: true,
    iterations: 0,
    prior: { yes: 0.4, no: 0.6 },
    jurors: models.map((model) => ({ model, accuracy: null, confusion: null, intervals: null })),
  }
}
