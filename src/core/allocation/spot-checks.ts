import { STRATA } from '../review/strata.ts'
import { neymanSplit, type StrataState } from './neyman.ts'

/** What spotCheckDepth reads. */
export interface SpotCheckInput {
  /** The spot checks a question gets at the least over the queue's life: the request's `audit`. */
  readonly spotChecks: number
  /** The most spot checks worth offering at once besides `spotChecks`: a page. */
  readonly limit: number
  readonly strata: StrataState
  /** The confident stratum's rank order as far as it was read (state hashes, from the first). */
  readonly confident: readonly string[]
  /** Whether a row of the question has a verdict. */
  readonly reviewed: (stateHash: string) => boolean
}

/**
 * The most rows of the confident stratum the queue offers as spot checks: its Neyman share of the
 * random rows the seed's order offers (`spotChecks` spot checks and every split and unsure row), and `spotChecks` at
 * the least; none when `spotChecks` is 0. So the queue ends where it did, with the same number of
 * random reviews in all.
 */
export function spotCheckCap(strata: StrataState, spotChecks: number): number {
  if (spotChecks <= 0) return 0
  const fresh = Object.fromEntries(STRATA.map((h) => [h, { ...strata[h], sampled: 0 }])) as StrataState
  return Math.max(spotChecks, neymanSplit(fresh, spotChecks + strata.split.size + strata.unsure.size).confident)
}

/**
 * How many of the next random reviews of a question go to the confident stratum before one goes
 * to the split or unsure stratum, under Neyman allocation (neymanSplit, one review at a time), up to `limit`
 * and to the confident stratum's cap (spotCheckCap).
 */
export function confidentRun(strata: StrataState, cap: number, limit: number): number {
  let confident = strata.confident
  let run = 0
  while (run < limit && confident.sampled < cap && neymanSplit({ ...strata, confident }, 1).confident === 1) {
    confident = { ...confident, sampled: confident.sampled + 1 }
    run += 1
  }
  return run
}

/**
 * The spot checks of a question now: how deep into the confident rank order they go, and how many are to come in all.
 */
export interface SpotCheckPlan {
  readonly depth: number
  /** Spot checks the queue will still offer, these and later ones, until the confident stratum reaches its cap. */
  readonly left: number
}

/**
 * How deep into the confident stratum's rank order the spot checks go: as far as it takes to offer
 * the confident stratum's run of the next random reviews (confidentRun), counting only rows without
 * a verdict. The split and unsure strata follow them, as in the seed's order; when they have had their share,
 * the next run of spot checks comes first. Rows are taken in rank order, so each stratum's sample
 * stays a prefix of it and a simple random sample of the stratum (docs/review.md, Review allocation).
 */
export function spotCheckPlan(input: SpotCheckInput): SpotCheckPlan {
  const spotChecks = Math.max(0, Math.trunc(input.spotChecks))
  // `spotChecks` is the seed's "random rows per question to spot-check": never more offered at once.
  const cap = spotCheckCap(input.strata, spotChecks)
  const wanted = confidentRun(input.strata, cap, Math.min(spotChecks, input.limit))
  let open = 0
  let depth = 0
  // The reviewed prefix is always in reach, so a row of it chosen for a second review is offered again.
  while (depth < input.confident.length && input.reviewed(input.confident[depth])) depth += 1
  while (open < wanted && depth < input.confident.length) {
    if (!input.reviewed(input.confident[depth])) open += 1
    depth += 1
  }
  const unsampled = input.strata.confident.size - input.strata.confident.sampled
  return { depth, left: Math.max(open, Math.min(unsampled, cap - input.strata.confident.sampled)) }
}
