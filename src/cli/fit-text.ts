import type { LastRunFit } from '../app/fit.ts'
import { unfitQuestions, type RunFit } from '../core/fit/fit.ts'
import { plural } from '../format.ts'

/**
 * The lines a run's fit adds to a summary: for each question that does not fit its rows (median
 * option mass below `min_fit`), the figures and its rows of lowest mass; none when every question
 * fits or nothing is known.
 */
export function fitLines(fit: RunFit | undefined, indent = '  '): string[] {
  return unfitQuestions(fit).flatMap(([question, q]) => [
    `${indent}question ${question} does not fit its rows: median option mass ${q.median} is below min_fit ${q.min_fit} ` +
      `(10th percentile ${q.p10}; ${q.known} of ${plural(q.answers, 'answer')} with a mass). The model's next token was mostly not one of its labels; ` +
      'reword the question or its labels. Rows of lowest mass:',
    ...q.lowest.map((row) => `${indent}  ${row.option_mass.toFixed(2)}  ${rowText(row.state, row.state_hash)}`),
  ])
}

function rowText(state: Readonly<Record<string, string>> | null | undefined, hash: string): string {
  if (!state) return `row ${hash} (its values are no longer in the store)`
  const text = JSON.stringify(state)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** What the judgments' last runs found of questions that do not fit their rows, for `judge plan`; "" when all fit. */
export function lastFitText(fits: readonly LastRunFit[]): string {
  const lines = fits.flatMap((f) => {
    const found = fitLines(f.fit)
    return found.length === 0 ? [] : [`\n${f.judgment}: its last run (${f.run_id}) found:`, ...found]
  })
  return lines.length === 0 ? '' : lines.join('\n') + '\n'
}
