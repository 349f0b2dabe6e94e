import { SpecError } from '../../errors.ts'
import { ALLOCATION_RULES, type AllocationRule } from './allocation-rule.ts'
import { describe, optional, type YamlMap } from './spec-values.ts'

/** The review-planning keys of a spec (docs/review.md, Review allocation and The reviews it takes). */
export interface ReviewPlan {
  /** The half-width of the accuracy interval wanted, or null when the spec sets none. */
  readonly accuracyTarget: number | null
  /** How the queue spreads spot checks over the strata. */
  readonly allocation: AllocationRule
}

/** The widest accuracy target accepted: an interval of ±0.5 says nothing about a share. */
export const MAX_ACCURACY_TARGET = 0.5

/** Reads `accuracy_target` and `allocation` from a spec's root mapping. */
export function parseReviewPlan(root: YamlMap, file: string): ReviewPlan {
  return {
    accuracyTarget: accuracyTarget(optional(root, 'accuracy_target'), file),
    allocation: allocation(optional(root, 'allocation'), file),
  }
}

function accuracyTarget(value: unknown, file: string): number | null {
  if (value === undefined) return null
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_ACCURACY_TARGET) {
    throw new SpecError(
      file,
      'accuracy_target',
      `must be the interval half-width wanted, a number above 0 and at most ${MAX_ACCURACY_TARGET} (for ` +
        `example 0.03), not ${describe(value)}`,
    )
  }
  return value
}

function allocation(value: unknown, file: string): AllocationRule {
  if (value === undefined) return ALLOCATION_RULES[0]
  if (ALLOCATION_RULES.includes(value as AllocationRule)) return value as AllocationRule
  throw new SpecError(
    file,
    'allocation',
    'must be neyman (spot checks follow where the interval narrows most) or fixed (the first audit rows ' +
      `only), not ${describe(value)}`,
  )
}
