import { spotCheckPlan } from '../core/allocation/spot-checks.ts'
import { strataState, type StrataState } from '../core/allocation/neyman.ts'
import type { RankedRows } from '../core/review/queue.ts'
import { verdictKey } from '../core/review/verdicts.ts'
import type { Question } from '../core/types.ts'
import { sampleDesignOf } from './sample-design.ts'
import { rankedRows, type ReviewSource } from './review-source.ts'

/**
 * The spot checks of one question: the confident stratum's rank order as deep as they go, that depth, and how many are
 * to come in all.
 */
export interface SpotChecks {
  readonly rows: RankedRows
  readonly depth: number
  /** Spot checks still to come, these and later ones; null for `fixed`, where the queue counts its own. */
  readonly left: number | null
}

/**
 * The spot checks of a question as the spec's allocation sets them: the first `spotChecks` rows of the
 * confident stratum for `fixed`; for `neyman`, as deep as the confident stratum's share of the next
 * reviews takes them (core/allocation/spot-checks.ts), from the question's strata (read from its
 * sample design unless given). `reviewed` is the question's verdicts: no spot check lies deeper than all
 * of them and a page more.
 */
export function spotChecks(
  source: ReviewSource,
  question: Question,
  at: { spotChecks: number; limit: number; reviewed: number; strata?: StrataState | null },
): SpotChecks {
  const { limit, reviewed } = at
  if (source.spec.allocation === 'fixed')
    return { rows: rankedRows(source, question, 'confident', at.spotChecks), depth: at.spotChecks, left: null }
  const strata = at.strata ?? strataState(sampleDesignOf(source, question))
  const read = rankedRows(source, question, 'confident', reviewed + limit)
  const plan = spotCheckPlan({
    spotChecks: at.spotChecks,
    limit,
    strata,
    confident: read.rows.map((a) => a.stateHash),
    reviewed: (hash) => source.verdicts.has(verdictKey(source.spec.name, question.name, hash)),
  })
  return { rows: { rows: read.rows.slice(0, plan.depth) }, depth: plan.depth, left: plan.left }
}
