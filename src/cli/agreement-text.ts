import type { QuestionAgreement } from '../core/agreement/agreement.ts'
import { figureText, modelFigureText, raterFigureText } from '../core/agreement/figure-text.ts'
import { percent, plural } from '../format.ts'

const kappaText = (kappa: number, interval: readonly [number, number] | null) => figureText('κ', kappa, interval)!

/**
 * A question's agreement in words (docs/review.md, Agreement): the model's κ against people with
 * raw agreement beside it, never alone; the people's κ between themselves and any reviewer
 * flagged; and how often the answer key was wrong where a reviewer spoke.
 */
export function agreementLines(a: QuestionAgreement): string[] {
  const lines = [
    a.kappa === null
      ? `agreement with people: not yet (${a.reason ?? 'no reviewed sample'})`
      : `agreement with people: ${kappaText(a.kappa, a.kappa_interval)}, ` +
        `raw agreement ${a.raw_agreement === null ? '-' : percent(a.raw_agreement)}, ` +
        `over ${plural(a.rows, 'sampled row')}`,
  ]
  const model = modelFigureText(a)
  if (model !== null) lines.push(`beside κ: ${model}`)
  const raters = raterFigureText(a)
  if (raters !== null) lines.push(`every reviewer's verdicts: ${raters}`)
  if (a.people.rows > 0) {
    const flagged = Object.entries(a.reviewers)
      .filter(([, r]) => r.flagged)
      .map(([name]) => name)
    const kappa =
      a.people.kappa === null ? `no κ (${a.people.reason})` : kappaText(a.people.kappa, a.people.kappa_interval)
    lines.push(
      `between reviewers: ${kappa}, raw agreement ${percent(a.people.raw_agreement ?? 0)}, ` +
        `over ${plural(a.people.rows, 'row')} reviewed ` +
        `twice${flagged.length > 0 ? `; far below the others: ${flagged.join(', ')}` : ''}`,
    )
  }
  if (a.key_error) {
    const [low, high] = a.key_error.interval
    lines.push(
      `answer key wrong on ${percent(a.key_error.point)} of ${plural(a.key_error.rows, 'reviewed key row')} ` +
        `(95% ${percent(low)} to ${percent(high)})`,
    )
  }
  return lines.map((line) => `    ${line}`)
}
