import type { QuestionComparison } from './compare.ts'

/** What `judge compare --require` asks of every compared question. */
export type Requirement = 'not-worse' | 'better'

/** The requirements `--require` takes. */
export const REQUIREMENTS: readonly Requirement[] = ['not-worse', 'better']

const points = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} points`

/**
 * Why the comparison does not meet the requirement, one line per question that fails; empty
 * when it does. `not-worse`: the 95% interval's lower end is above −margin (the candidate is at
 * most `margin` less accurate); `better`: its lower end is above 0. A question without an interval
 * fails either way, naming the reviews that would settle it.
 */
export function gateFailures(questions: Readonly<Record<string, QuestionComparison>>, require: Requirement, margin: number): string[] {
  const bar = require === 'better' ? 0 : -margin
  return Object.entries(questions).flatMap(([name, q]) => {
    if (q.interval === null || q.difference === null) {
      return [`${name}: no difference estimated yet: review ${q.reviews_needed} discordant row${q.reviews_needed === 1 ? '' : 's'} in the comparison's order${q.next ? ` (next ${q.next})` : ''}`]
    }
    if (q.interval[0] > bar) return []
    const want = require === 'better' ? 'above 0' : `above ${points(-margin)}`
    return [`${name}: difference ${points(q.difference)}, 95% interval ${points(q.interval[0])} to ${points(q.interval[1])}: its lower end is not ${want}`]
  })
}
