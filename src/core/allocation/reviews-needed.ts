import { stratifiedProportion, type Cell } from '../stats/stratified-proportion.ts'
import { STRATA, type Stratum } from '../review/strata.ts'
import { adjustedAccuracy, neymanSplit, type StrataState } from './neyman.ts'

/**
 * The half-width of the accuracy interval after `more` reviews per stratum, if they find what the sample found so far.
 */
export function projectedHalfWidth(strata: StrataState, more: Readonly<Record<Stratum, number>>): number {
  const cells = STRATA.map((h): Cell => {
    const s = strata[h]
    // Reviews to come are labelled as often as the sample's were, and right as often (the prior's share while none is
    // counted).
    const labelled = s.sampled === 0 ? 1 : s.counted / s.sampled
    const accuracy = s.counted === 0 ? adjustedAccuracy(s) : s.correct / s.counted
    const counted = s.counted + more[h] * labelled
    return { size: s.size, sampled: s.sampled + more[h], counted, successes: counted * accuracy }
  })
  const result = stratifiedProportion(cells)
  return result === null ? Infinity : (result.interval[1] - result.interval[0]) / 2
}

/**
 * The reviews, per stratum, it takes before the accuracy interval's half-width is at most
 * `target`: the fewest in total, split by Neyman allocation (neymanSplit), assuming the reviews to
 * come find what the sample found so far. Zero in every stratum when the interval is already that
 * narrow; every unsampled row of a stratum at most (a stratum reviewed whole adds no variance).
 */
export function reviewsNeeded(strata: StrataState, target: number): Record<Stratum, number> {
  const none = Object.fromEntries(STRATA.map((h) => [h, 0])) as Record<Stratum, number>
  if (projectedHalfWidth(strata, none) <= target) return none
  const remaining = STRATA.reduce((n, h) => n + Math.max(0, strata[h].size - strata[h].sampled), 0)
  // The half-width falls as reviews are added, so the fewest that reach the target are found by bisection.
  let low = 0
  let high = remaining
  while (low + 1 < high) {
    const mid = Math.floor((low + high) / 2)
    if (projectedHalfWidth(strata, neymanSplit(strata, mid)) <= target) high = mid
    else low = mid
  }
  return neymanSplit(strata, high)
}

/** A question's accuracy target and what it takes: the fields GET /v1/accuracy gives per question. */
export interface TargetFigures {
  /** The half-width asked for (`accuracy_target`), or null when the spec sets none. */
  readonly accuracy_target: number | null
  /** Reviews still needed per stratum to reach it, all 0 once reached; null without a target or without answers. */
  readonly reviews_needed: Readonly<Record<Stratum, number>> | null
}

/** The target figures of a question's strata under the spec's `accuracy_target` (null: none set). */
export function targetFigures(strata: StrataState, target: number | null): TargetFigures {
  const answers = STRATA.reduce((n, h) => n + strata[h].size, 0)
  return {
    accuracy_target: target,
    reviews_needed: target === null || answers === 0 ? null : reviewsNeeded(strata, target),
  }
}

/** One stratum's reviews still needed, as the texts list them. */
export interface NeededPart {
  readonly stratum: Stratum
  readonly reviews: number
}

/**
 * The reviews still needed per stratum as the texts list them, in STRATA order: the unsure and confident strata
 * always, the split stratum only when it needs some (one model's answers have none).
 */
export function neededParts(needed: Readonly<Record<Stratum, number>>): NeededPart[] {
  return STRATA.filter((h) => h !== 'split' || needed.split > 0).map((h) => ({ stratum: h, reviews: needed[h] }))
}

/** The reviews still needed in all, over every stratum. */
export function neededTotal(needed: Readonly<Record<Stratum, number>>): number {
  return STRATA.reduce((n, h) => n + needed[h], 0)
}
