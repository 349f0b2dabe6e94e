import type { QuestionAgreement } from './agreement.ts'
import { decimals, withInterval } from '../../format.ts'

/** A figure with its 95% interval in words, `name 0.71 (95% 0.51 to 0.81)`; null when the figure is missing. */
export function figureText(
  name: string,
  value: number | null,
  interval: readonly [number, number] | null,
): string | null {
  if (value === null) return null
  return `${name} ${withInterval(value, interval, decimals(2), '95% ')}`
}

/** The model's figures beside κ, in words: AC1, and for a scale the weighted κs. */
export function modelFigureText(a: QuestionAgreement): string | null {
  const parts = [
    figureText('AC1', a.ac1, a.ac1_interval),
    figureText('linear κ', a.kappa_linear, a.kappa_linear_interval),
    figureText('quadratic κ', a.kappa_quadratic, a.kappa_quadratic_interval),
  ].filter((p) => p !== null)
  return parts.length === 0 ? null : parts.join(', ')
}

/** People's figures over every reviewer's verdicts, in words: AC1 and α with its level. */
export function raterFigureText(a: QuestionAgreement): string | null {
  const parts = [
    figureText('AC1', a.people.ac1, a.people.ac1_interval),
    figureText(`α (${a.people.alpha_level})`, a.people.alpha, a.people.alpha_interval),
  ].filter((p) => p !== null)
  return parts.length === 0 ? null : parts.join(', ')
}
