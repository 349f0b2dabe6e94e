import type { IncomingHttpHeaders } from 'node:http'
import { validReviewer } from '../../adapters/files/reviews-file.ts'
import { queueTarget, recordVerdict, reviewQueue, type QueueTarget } from '../../app/review.ts'
import type { StoredQueue } from '../../app/review-data.ts'
import { timestamp } from '../../core/judge/deps.ts'
import { DEFAULT_AUDIT, MAX_AUDIT } from '../../core/review/queue.ts'
import type { VerdictRequest } from '../../core/review/verdict-check.ts'
import { KINDS, type Kind } from '../../core/review/verdicts.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type Endpoint, type ServerContext } from '../context.ts'
import { href } from '../html.ts'
import { reviewPage, type ReviewData } from '../pages/review.ts'
import { pageReply, redirectReply } from '../reply.ts'
import { param } from '../params.ts'

/** The reviewer a verdict is signed with when the request names none (seed 2.6). */
export const DEFAULT_REVIEWER = 'server'

/** A review request's parameters, checked: the judgment, the spot-check size, the reviewer named. */
interface Target extends QueueTarget {
  readonly path: string
  readonly reviewer: string | null
}

/** GET /review: the first page of a judgment's queue, built from the store, key and reviews file. */
export const reviewPageEndpoint: Endpoint = async (ctx, request) => {
  const target = targetOf(ctx, request.query)
  return pageReply(reviewPage(reviewData(target, await reviewQueue(ctx.runtime, target)), request.token))
}

/**
 * POST /review: checks one verdict against the current queue and appends it to the reviews file,
 * then sends the browser back to the queue (303). The check and the append run under one lock per
 * reviews file, so two verdicts on one row cannot both be accepted by this server.
 */
export const verdictEndpoint: Endpoint = async (ctx, request) => {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')) {
    throw new UsageError('POST /review takes a form (application/x-www-form-urlencoded), as the review page sends')
  }
  const form = await request.form()
  const target = targetOf(ctx, form)
  const verdict = verdictOf(form, signer(request.headers, target.reviewer), timestamp(ctx.now()))
  await recordVerdict(ctx.runtime, target, verdict)
  const back = { path: target.path, node: param(form, 'node') ?? undefined, reviewer: target.reviewer ?? undefined, audit: target.audit }
  return redirectReply(href('/review', back, request.token))
}

/** The spot-check size a request asks for: a whole number from 0 to MAX_AUDIT, default DEFAULT_AUDIT. */
export function auditOf(raw: string | null): number {
  if (raw === null) return DEFAULT_AUDIT
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!(value <= MAX_AUDIT)) throw new UsageError(`audit must be a whole number from 0 to ${MAX_AUDIT}, not ${quoted(raw)}`)
  return value
}

/** A reviewer name as given, checked; null when none is given. */
export function reviewerOf(raw: string | null, source: string): string | null {
  if (raw === null) return null
  if (!validReviewer(raw)) {
    throw new UsageError(`${source} ${quoted(raw)} is not a reviewer name: use 1 to 64 letters, digits, spaces and ._@-, starting with a letter or digit`)
  }
  return raw
}

/** The name a verdict is signed with: the X-Reviewer header, else the reviewer field, else DEFAULT_REVIEWER. */
function signer(headers: IncomingHttpHeaders, field: string | null): string {
  const header = headers['x-reviewer']
  const named = typeof header === 'string' && header !== '' ? reviewerOf(header, 'X-Reviewer') : null
  return named ?? field ?? DEFAULT_REVIEWER
}

function targetOf(ctx: ServerContext, params: URLSearchParams): Target {
  const path = param(params, 'path')
  const target = queueTarget(loadRequested(ctx, path), param(params, 'node'), auditOf(param(params, 'audit')))
  return { ...target, path: path!, reviewer: reviewerOf(param(params, 'reviewer'), 'reviewer') }
}

function verdictOf(form: URLSearchParams, reviewer: string, reviewedAt: string): VerdictRequest {
  const field = (name: string): string => {
    const value = param(form, name)
    if (value === null) throw new UsageError(`the form field ${name} is required; the review page's buttons send it`)
    return value
  }
  return { question: field('question'), stateHash: field('state'), kind: field('kind'), verdict: field('verdict'), label: param(form, 'label'), reviewer, reviewedAt }
}

function reviewData(target: Target, queue: StoredQueue): ReviewData {
  const { spec } = target
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, queue.offered.filter((c) => c.kind === kind).length])) as Record<Kind, number>
  return {
    path: target.path,
    judgment: spec.name,
    judgments: target.project.selected.map((s) => s.name),
    reviewer: target.reviewer,
    audit: target.audit,
    asks: Object.fromEntries(spec.questions.map((q) => [q.name, q.ask])),
    counts,
    moreUnsure: queue.moreUnsure,
    cards: queue.cards,
    model: queue.model ?? null,
  }
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}
