import { compare } from '../spec/comparison.ts'
import type { ActRule } from '../types.ts'
import type { Reading } from './answer.ts'

/** Whether every condition a rule's `when` holds is true of the answer. */
export function ruleHolds(rule: ActRule, reading: Reading): boolean {
  const { label, p, margin } = rule.when
  if (label && !label.includes(reading.label)) return false
  if (p && !compare(p, reading.p)) return false
  if (margin && !compare(margin, reading.margin)) return false
  return true
}

/** The route of an answer: the route of the first rule that holds, or "" when none does. */
export function routeOf(rules: readonly ActRule[] | undefined, reading: Reading): string {
  for (const rule of rules ?? []) if (ruleHolds(rule, reading)) return rule.route
  return ''
}
