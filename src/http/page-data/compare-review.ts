import { compareQueue, type CompareCard } from '../../app/compare-review.ts'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { param } from '../params.ts'
import { reviewPageData, type ReviewData } from './review-data.ts'
import { reviewerOf, rowRefOf, signer } from './review-params.ts'

/** Rows of the comparison review a page shows. */
export const COMPARE_PAGE_SIZE = 25

/**
 * What GET /review?compare=<candidate> shows: the rows where the live and the candidate spec differ, to label blind.
 */
export interface CompareReviewData {
  /** The live path and the candidate's, as requested. */
  readonly path: string
  readonly compare: string
  readonly judgment: string
  readonly candidate: string
  readonly reviewer: string | null
  /** The name the page's verdicts are signed with. */
  readonly signer: string
  /** Rows left to review per question, and the first COMPARE_PAGE_SIZE of them in order. */
  readonly left: Readonly<Record<string, number>>
  readonly cards: readonly CompareCard[]
  /** The row just labelled (`saved=question:state_hash`), or null. */
  readonly saved: { readonly question: string; readonly state_hash: string } | null
}

/** The comparison review of `compare` against the live `path`, asking nothing (app/compare-review.ts). */
export async function compareReviewData(ctx: ServerContext, request: HttpRequest): Promise<CompareReviewData> {
  const { query } = request
  const path = param(query, 'path')
  const compare = param(query, 'compare')!
  const live = loadRequested(ctx, path)
  const candidate = loadRequested(ctx, compare, 'compare')
  const reviewer = reviewerOf(param(query, 'reviewer'), 'reviewer')
  const queue = await compareQueue(ctx.runtime, { live, candidate, judgment: param(query, 'node') })
  const saved = rowRefOf(param(query, 'saved'), 'saved')
  return {
    path: path!,
    compare,
    judgment: queue.judgment,
    candidate: queue.candidate,
    reviewer,
    signer: signer(request.headers, reviewer),
    left: queue.left,
    cards: queue.cards.slice(0, COMPARE_PAGE_SIZE),
    saved: saved && { question: saved.question, state_hash: saved.stateHash },
  }
}

/** The review page's data: the comparison review when the request names `compare`, else the seed's queue. */
export function reviewModeData(ctx: ServerContext, request: HttpRequest): Promise<ReviewData | CompareReviewData> {
  return param(request.query, 'compare') === null ? reviewPageData(ctx, request) : compareReviewData(ctx, request)
}
