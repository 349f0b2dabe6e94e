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
 * Counts `rows` rows of one question's label whose state has come `m` times so far, these rows
 * included (a row at a time: `rows` 1; a state's rows all at once: `rows` m): `rows` rows more, a
 * state more when they are its first, and m² − (m − rows)² more squared rows, so that each label
 * ends with Σ m² over its states. Within a run a state has one label.
 */
export function tallyLabel(byLabel: Map<string, LabelTally>, label: string, m: number, rows = 1): void {
  const tally = byLabel.get(label) ?? { rows: 0, states: 0, squares: 0 }
  byLabel.set(label, tally)
  tally.rows += rows
  tally.states += m === rows ? 1 : 0
  tally.squares += m * m - (m - rows) * (m - rows)
}

/** Counts `rows` rows' labels, a label per question of their answers, their state having come `m` times so far. */
export function tallyLabels(
  byQuestion: Map<string, Map<string, LabelTally>>,
  answers: Answers,
  m: number,
  rows = 1,
): void {
  for (const [question, answer] of Object.entries(answers)) {
    const byLabel = byQuestion.get(question) ?? new Map<string, LabelTally>()
    byQuestion.set(question, byLabel)
    tallyLabel(byLabel, answer.label, m, rows)
  }
}
