import { judgeRequest } from '../../app/judge-request.ts'
import { shadowRow } from '../../app/shadow.ts'
import type { Row } from '../../core/types.ts'
import { objectBody, optionalBoolean, optionalString, requiredObject } from '../body.ts'
import { loadRequested, type Endpoint } from '../context.ts'
import { jsonReply } from '../reply.ts'

/** The fields of a POST /v1/judge body (seed 4.1). */
export const JUDGE_FIELDS = ['path', 'row', 'node', 'shadow', 'log'] as const

/** A POST /v1/judge body, checked for shape; `path` is checked when it is resolved. */
export interface JudgeBody {
  readonly path: unknown
  readonly row: Row
  readonly node: string | undefined
  readonly shadow: string | undefined
  readonly log: boolean
}

/** Checks a parsed body: a JSON object of the known fields with the right types, or a 400. */
export function parseJudgeBody(value: unknown): JudgeBody {
  const body = objectBody(value, JUDGE_FIELDS)
  return {
    path: body.path,
    row: requiredObject(body, 'row'),
    node: optionalString(body, 'node'),
    shadow: optionalString(body, 'shadow'),
    log: optionalBoolean(body, 'log') ?? false,
  }
}

/**
 * POST /v1/judge: judges one row within JUDGE_SERVER_MAX_COST per judgment and answers each
 * question. Every path is checked before anything is asked, `shadow` included, so that a bad
 * candidate is the caller's 400-class error rather than a silent failure later.
 */
export const judgeEndpoint: Endpoint = async (ctx, request) => {
  const body = parseJudgeBody(await request.json())
  const live = loadRequested(ctx, body.path)
  const candidate = body.shadow === undefined ? null : loadRequested(ctx, body.shadow, 'shadow')
  const cap = ctx.config.serverMaxCost
  const serverSpend = { dailyCap: ctx.config.serverMaxDailyCost }
  const asked = { project: live, row: body.row, node: body.node, cap, log: body.log, signal: ctx.shutdown, serverSpend }
  const { answers, results } = await judgeRequest(ctx.runtime, asked)
  const reply = jsonReply(answers)
  if (candidate === null) return reply
  const log = (line: string) => ctx.log(ctx.clean(line))
  const job = { live, results, candidate, row: body.row, cap, signal: ctx.shutdown, serverSpend }
  return { ...reply, after: () => shadowRow(ctx.runtime, job, log) }
}
