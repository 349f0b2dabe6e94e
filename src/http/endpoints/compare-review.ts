import { recordComparison } from '../../app/compare-review.ts'
import { timestamp } from '../../core/judge/deps.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { href } from '../html.ts'
import { param } from '../params.ts'
import { redirectReply, type Reply } from '../reply.ts'
import { reviewerOf, signer } from '../page-data/review-params.ts'

/**
 * POST /review with a `compare` field: one comparison verdict (kind `compare`, verdict `labeled`,
 * the label), checked against the comparison review and appended to the live judgment's reviews
 * file under its lock; then back to the comparison review, naming the row saved (303).
 */
export async function comparisonVerdict(
  ctx: ServerContext,
  request: HttpRequest,
  form: URLSearchParams,
): Promise<Reply> {
  const field = (name: string) => {
    const value = param(form, name)
    if (value === null)
      throw new UsageError(`the form field ${name} is required; the comparison review's buttons send it`)
    return value
  }
  if (field('kind') !== 'compare' || field('verdict') !== 'labeled')
    throw new UsageError('a comparison verdict has kind compare and verdict labeled')
  const path = field('path')
  const compare = field('compare')
  const judgment = param(form, 'node')
  const reviewer = reviewerOf(param(form, 'reviewer'), 'reviewer')
  const target = { live: loadRequested(ctx, path), candidate: loadRequested(ctx, compare, 'compare'), judgment }
  const record = await recordComparison(ctx.runtime, target, {
    question: field('question'),
    stateHash: field('state'),
    label: field('label'),
    reviewer: signer(request.headers, reviewer),
    reviewedAt: timestamp(ctx.now()),
  })
  return redirectReply(
    href(
      '/review',
      {
        path,
        node: judgment ?? undefined,
        compare,
        reviewer: reviewer ?? undefined,
        saved: `${record.question}:${record.state_hash}`,
      },
      request.token,
    ),
  )
}
