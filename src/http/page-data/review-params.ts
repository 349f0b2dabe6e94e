import type { IncomingHttpHeaders } from 'node:http'
import { validReviewer } from '../../adapters/files/reviews-file.ts'
import { queueTarget, type QueueTarget } from '../../app/review.ts'
import { DEFAULT_SPOT_CHECKS, MAX_SPOT_CHECKS, PAGE_SIZE } from '../../core/review/queue.ts'
import type { QueueFilter } from '../../core/review/queue-view.ts'
import { isKind } from '../../core/review/verdicts.ts'
import type { Spec } from '../../core/types.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

/** The reviewer a verdict is signed with when the request names none (docs/review.md, Recording a verdict). */
export const DEFAULT_REVIEWER = 'server'

/** The furthest page of a queue a request may ask for: 10,000 rows, more than anyone pages through. */
export const MAX_PAGE = 400

/** A row of one question: what the `saved` and `undone` parameters name, as `question:state_hash`. */
export interface RowRef {
  readonly question: string
  readonly stateHash: string
}

/** A review request's parameters, checked: the judgment, spot-check size and reviewer, the filter and page. */
export interface ReviewTarget extends QueueTarget {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  /** The judgment as the request named it (its `node` parameter), carried on in links. */
  readonly judgmentParam: string | null
  readonly reviewer: string | null
  readonly filter: QueueFilter
  /** The page asked for, from 1. */
  readonly page: number
}

/**
 * The target of GET /review (and its twin) from the query, or of a form posted by the page, whose
 * filter fields are `filter_kind`, `filter_question` and `filter_row` (its `kind` and `question`
 * name the card). The queue is read far enough to show the page, and the row filtered on.
 */
export function reviewTarget(ctx: ServerContext, params: URLSearchParams, form = false): ReviewTarget {
  const path = param(params, 'path')
  const base = queueTarget(loadRequested(ctx, path), param(params, 'node'), spotChecksOf(param(params, 'audit')))
  const prefix = form ? 'filter_' : ''
  const filter = filterOf(
    base.spec,
    param(params, `${prefix}kind`),
    param(params, `${prefix}question`),
    param(params, `${prefix}row`),
  )
  const page = pageOf(param(params, 'page'))
  return {
    ...base,
    path: path!,
    judgmentParam: param(params, 'node'),
    reviewer: reviewerOf(param(params, 'reviewer'), 'reviewer'),
    filter,
    page,
    limit: page * PAGE_SIZE,
    rows: filter.row === null ? [] : [filter.row],
  }
}

/** A filter's parameters, checked against the judgment: a kind, one of its questions, a state hash. */
export function filterOf(spec: Spec, kind: string | null, question: string | null, row: string | null): QueueFilter {
  if (kind !== null && !isKind(kind))
    throw new UsageError(`kind must be disagreement, spot_check or unsure, not ${quoted(kind)}`)
  if (question !== null && !spec.questions.some((q) => q.name === question)) {
    throw new UsageError(
      `question ${quoted(question)} is not a question of ${spec.name} ` +
        `(${spec.questions.map((q) => q.name).join(', ')})`,
    )
  }
  if (row !== null && !/^[0-9a-f]{16}$/.test(row))
    throw new UsageError(`row must be a state hash of 16 hex digits, not ${quoted(row)}`)
  return { kind, question, row }
}

/** The page a request asks for: a whole number from 1 to MAX_PAGE, default 1. */
export function pageOf(raw: string | null): number {
  if (raw === null) return 1
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!(value >= 1 && value <= MAX_PAGE))
    throw new UsageError(`page must be a whole number from 1 to ${MAX_PAGE}, not ${quoted(raw)}`)
  return value
}

/** A `saved` or `undone` parameter, `question:state_hash`, or null when absent. */
export function rowRefOf(raw: string | null, name: string): RowRef | null {
  if (raw === null) return null
  const match = /^([a-z0-9_]{1,100}):([0-9a-f]{16})$/.exec(raw)
  if (!match) throw new UsageError(`${name} must name a row as question:state_hash, not ${quoted(raw)}`)
  return { question: match[1], stateHash: match[2] }
}

/** The spot-check size a request asks for: a whole number from 0 to MAX_SPOT_CHECKS, default DEFAULT_SPOT_CHECKS. */
export function spotChecksOf(raw: string | null): number {
  if (raw === null) return DEFAULT_SPOT_CHECKS
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!(value <= MAX_SPOT_CHECKS))
    throw new UsageError(`audit must be a whole number from 0 to ${MAX_SPOT_CHECKS}, not ${quoted(raw)}`)
  return value
}

/** A reviewer name as given, checked; null when none is given. */
export function reviewerOf(raw: string | null, source: string): string | null {
  if (raw === null) return null
  if (!validReviewer(raw)) {
    throw new UsageError(
      `${source} ${quoted(raw)} is not a reviewer name: use 1 to 64 letters, digits, spaces and ._@-, ` +
        'starting with a letter or digit',
    )
  }
  return raw
}

/** The name a verdict is signed with: the X-Reviewer header, else the reviewer field, else DEFAULT_REVIEWER. */
export function signer(headers: IncomingHttpHeaders, field: string | null): string {
  const header = headers['x-reviewer']
  const named = typeof header === 'string' && header !== '' ? reviewerOf(header, 'X-Reviewer') : null
  return named ?? field ?? DEFAULT_REVIEWER
}

/** Where the browser goes back to after a verdict or an undo: the same queue, filter and page. */
export function backParams(target: ReviewTarget): Record<string, string | number | undefined> {
  const { filter } = target
  return {
    path: target.path,
    node: target.judgmentParam ?? undefined,
    reviewer: target.reviewer ?? undefined,
    audit: target.spotChecks,
    kind: filter.kind ?? undefined,
    question: filter.question ?? undefined,
    row: filter.row ?? undefined,
    page: target.page > 1 ? target.page : undefined,
  }
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
}
