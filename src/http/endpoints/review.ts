import { recordVerdict, undoVerdict } from '../../app/review.ts'
import { timestamp } from '../../core/judge/deps.ts'
import type { VerdictRequest } from '../../core/review/verdict-check.ts'
import { UsageError } from '../../errors.ts'
import type { Endpoint, HttpRequest } from '../context.ts'
import { href } from '../html.ts'
import { redirectReply } from '../reply.ts'
import { param } from '../params.ts'
import { backParams, reviewTarget, signer } from '../page-data/review-params.ts'
import { comparisonVerdict } from './compare-review.ts'

// Callers that parse review parameters find them here too.
export { spotChecksOf, DEFAULT_REVIEWER, reviewerOf } from '../page-data/review-params.ts'

/**
 * Where the page opens after a verdict or an undo: at the banner that says what was done, the next card's question
 * under it (pages/review.ts), whatever the screen's size.
 */
const QUEUE = '#queue'

/**
 * POST /review: checks one verdict against the current queue and appends it to the reviews file,
 * then sends the browser back to the same queue, filter and page, at its banner, naming the row saved (303). The
 * check and the append run under one lock per reviews file, so two verdicts on one row cannot
 * both be accepted by this server.
 */
export const verdictEndpoint: Endpoint = async (ctx, request) => {
  const form = await formOf(request, 'POST /review')
  if (param(form, 'compare') !== null) return comparisonVerdict(ctx, request, form)
  const target = reviewTarget(ctx, form, true)
  const verdict = verdictOf(form, signer(request.headers, target.reviewer), timestamp(ctx.now()))
  const record = await recordVerdict(ctx.runtime, target, verdict)
  ctx.observer?.verdict(record.judgment, record.verdict)
  const back = href(
    '/review',
    { ...backParams(target), saved: `${record.question}:${record.state_hash}` },
    request.token,
  )
  return { ...redirectReply(`${back}${QUEUE}`), reviewer: record.reviewer }
}

/**
 * POST /review/undo: withdraws the verdict the page's banner shows by appending a retraction line
 * (the reviews file is never edited), then sends the browser back to the queue, where the row is
 * offered again (303). A verdict undone already or followed by a later one is a 409.
 */
export const undoEndpoint: Endpoint = async (ctx, request) => {
  const form = await formOf(request, 'POST /review/undo')
  const target = reviewTarget(ctx, form, true)
  const field = required(form)
  const undo = {
    question: field('question'),
    stateHash: field('state'),
    reviewedAt: field('reviewed_at'),
    reviewer: signer(request.headers, target.reviewer),
    at: timestamp(ctx.now()),
  }
  const withdrawn = await undoVerdict(ctx.runtime, target.spec, undo, target.project)
  const back = href(
    '/review',
    { ...backParams(target), undone: `${withdrawn.question}:${withdrawn.state_hash}` },
    request.token,
  )
  return redirectReply(`${back}${QUEUE}`)
}

async function formOf(request: HttpRequest, what: string): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
    throw new UsageError(`${what} takes a form (application/x-www-form-urlencoded), as the review page sends`)
  }
  return request.form()
}

function required(form: URLSearchParams): (name: string) => string {
  return (name) => {
    const value = param(form, name)
    if (value === null) throw new UsageError(`the form field ${name} is required; the review page's buttons send it`)
    return value
  }
}

function verdictOf(form: URLSearchParams, reviewer: string, reviewedAt: string): VerdictRequest {
  const field = required(form)
  return {
    question: field('question'),
    stateHash: field('state'),
    kind: field('kind'),
    verdict: field('verdict'),
    label: param(form, 'label'),
    note: param(form, 'note'),
    reviewer,
    reviewedAt,
  }
}
