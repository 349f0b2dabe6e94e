import { forgetRows } from '../../app/forget.ts'
import type { Row } from '../../core/types.ts'
import { ForbiddenError, UsageError } from '../../errors.ts'
import { objectBody, optionalString, requiredObject } from '../body.ts'
import { loadRequested, type Endpoint } from '../context.ts'
import { jsonReply } from '../reply.ts'

/** The fields of a POST /v1/forget body (docs/http-api.md). */
export const FORGET_FIELDS = ['path', 'node', 'row', 'state'] as const

/** A POST /v1/forget body, checked for shape: a path and exactly one of a row or a state hash. */
export interface ForgetBody {
  readonly path: unknown
  readonly judgment: string | undefined
  readonly row: Row | undefined
  readonly state: string | undefined
}

/** Checks a parsed body: a JSON object of the known fields, with one of `row` and `state`, or a 400. */
export function parseForgetBody(value: unknown): ForgetBody {
  const body = objectBody(value, FORGET_FIELDS)
  const has = (name: string) => body[name] !== undefined && body[name] !== null
  if (has('row') === has('state'))
    throw new UsageError("name the row to forget with exactly one of row (the row's columns) or state (its state hash)")
  return {
    path: body.path,
    judgment: optionalString(body, 'node'),
    row: has('row') ? requiredObject(body, 'row') : undefined,
    state: optionalString(body, 'state'),
  }
}

/**
 * POST /v1/forget: forgets one row, everywhere judge keeps its values, and answers what was
 * removed. Only a server with a token does it (403 otherwise): an open server must not erase data
 * for anyone who can reach it. The replies this server kept by request body go too.
 */
export const forgetEndpoint: Endpoint = async (ctx, request) => {
  if (ctx.token === null)
    throw new ForbiddenError(
      'POST /v1/forget erases data, so it needs a server with a token (JUDGE_SERVER_TOKEN); ' +
        'use judge forget on the command line otherwise',
    )
  const body = parseForgetBody(await request.json())
  const project = loadRequested(ctx, body.path)
  const report = await forgetRows(ctx.runtime, {
    project,
    judgment: body.judgment,
    rows: body.row ? [body.row] : [],
    states: body.state === undefined ? [] : [body.state],
    apply: true,
    command: 'POST /v1/forget',
  })
  ctx.replies.clear()
  return jsonReply(report)
}
