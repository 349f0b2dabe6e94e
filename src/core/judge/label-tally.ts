import type { Answers } from '../types.ts'

/**
 * A label's rows of one question in a run, the distinct states among them, and the sum of each state's rows squared.
 */
export interface LabelTally {
  rows: number
  states: number
  squares: number
}

/**
 * Counts one row's label of one question, the row's state having come `m` times so far (this row
 * included): a row more, a state more when m is 1, and 2m − 1 more squared rows (m² − (m − 1)²),
 * so that each label ends with Σ m² over its states. Within a run a state has one label.
 */
export function tallyLabel(byLabel: Map<string, LabelTally>, label: string, m: number): void {
  const tally = byLabel.get(label) ?? { rows: 0, states: 0, squares: 0 }
  byLabel.set(label, tally)
  tally.rows += 1
  tally.states += m === 1 ? 1 : 0
  tally.squares += 2 * m - 1
}

/** Counts one row's labels, a label per question of its answers, the row's state having come `m` times so far. */
export function tallyLabels(byQuestion: Map<string, Map<string, LabelTally>>, answers: Answers, m: number): void {
  for (const [question, answer] of Object.entries(answers)) {
    const byLabel = byQuestion.get(question) ?? new Map<string, LabelTally>()
    byQuestion.set(question, byLabel)
    tallyLabel(byLabel, answer.label, m)
  }
}
