import type { QuestionComparison } from './compare.ts'
import { plural, points, pValue } from '../../format.ts'

/** What `judge compare --require` asks of every changed question. */
export type Requirement = 'not-worse' | 'better'

/** The requirements `--require` takes. */
export const REQUIREMENTS: readonly Requirement[] = ['not-worse', 'better']

/** What the gate decides about: the traffic the compared rows sample (the default), or the compared rows themselves. */
export type Scope = 'traffic' | 'rows'

/** The scopes `--scope` takes. */
export const SCOPES: readonly Scope[] = ['traffic', 'rows']

/**
 * Why the comparison does not meet the requirement, one line per question that fails; empty
 * when it does. About the traffic (the default): `not-worse` needs the 95% interval's lower end
 * above −margin (the candidate at most `margin` less accurate); `better` needs the verdict
 * `better` (the lower end above 0 and McNemar's exact p below 0.05). About the rows themselves
 * (`scope` rows), a question whose every discordant row is known is judged on its exact difference
 * on those rows; any other still on its interval. A question without an estimate fails either way,
 * naming the reviews that would settle it. An unchanged question (asked alike by both specs, its
 * answers the live ones by construction) is outside the gate: it meets either requirement, so a
 * candidate that changes no question meets the gate.
 */
export function gateFailures(
  questions: Readonly<Record<string, QuestionComparison>>,
  require: Requirement,
  margin: number,
  scope: Scope = 'traffic',
): string[] {
  const bar = require === 'better' ? 0 : -margin
  const want = require === 'better' ? 'above 0' : `above ${points(-margin)}`
  return Object.entries(questions).flatMap(([name, q]) => {
    if (!q.changed) return []
    if (q.interval === null || q.difference === null) {
      return [
        `${name}: no difference estimated yet: review ${plural(q.reviews_needed, 'discordant row')} in the ` +
          `comparison's order${q.next ? ` (next ${q.next})` : ''}`,
      ]
    }
    if (scope === 'rows' && q.rows_difference !== null) {
      return q.rows_difference > bar
        ? []
        : [
            `${name}: difference on the compared rows ${points(q.rows_difference)} (every discordant row ` +
              `known): not ${want}`,
          ]
    }
    const range = `95% interval ${points(q.interval[0])} to ${points(q.interval[1])}`
    if (q.interval[0] <= bar)
      return [`${name}: difference ${points(q.difference)}, ${range}: its lower end is not ${want}`]
    if (require === 'better' && q.verdict !== 'better')
      return [
        `${name}: difference ${points(q.difference)}, ${range}, but McNemar's exact ` +
          `${pValue(q.p_value)} is not below 0.05`,
      ]
    return []
  })
}

/** The questions a gate judges: those the candidate changed, in the report's order. */
export function gatedQuestions(questions: Readonly<Record<string, QuestionComparison>>): string[] {
  return Object.entries(questions).flatMap(([name, q]) => (q.changed ? [name] : []))
}
