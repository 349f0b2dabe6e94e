import { judgeRequestNow, type Judged } from '../../app/judge-request.ts'
import { shadowRow } from '../../app/shadow.ts'
import type { Row } from '../../core/types.ts'
import { objectBody, optionalBoolean, optionalString, requiredObject } from '../body.ts'
import { loadRequested, resolveRequested, type Endpoint, type ServerContext } from '../context.ts'
import { jsonReply, type Reply } from '../reply.ts'
import type { Resolved } from '../resolved-paths.ts'

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

/** What judging a body gave: the reply, the path it was judged under, and whether every answer came from the store. */
export interface JudgeOutcome {
  readonly reply: Reply
  readonly resolved: Resolved
  /** True when the store held every answer and nothing was waited for: the same body gets the same reply while `resolved` stands. */
  readonly fromStore: boolean
}

/**
 * Judges a POST /v1/judge body within JUDGE_SERVER_MAX_COST per judgment: synchronously when the
 * store holds every answer (errors are then thrown, not rejected), else as a promise. Every path
 * is checked before anything is asked, `shadow` included, so that a bad candidate is the caller's
 * 400-class error rather than a silent failure later.
 */
export function judgeBody(ctx: ServerContext, body: JudgeBody): JudgeOutcome | Promise<JudgeOutcome> {
  const resolved = resolveRequested(ctx, body.path)
  const live = resolved.project
  const candidate = body.shadow === undefined ? null : loadRequested(ctx, body.shadow, 'shadow')
  const cap = ctx.config.serverMaxCost
  const serverSpend = { dailyCap: ctx.config.serverMaxDailyCost }
  const asked = { project: live, row: body.row, node: body.node, cap, log: body.log, signal: ctx.shutdown, serverSpend }
  const judged = judgeRequestNow(ctx.runtime, asked)
  const outcome = ({ answers, results }: Judged, waited: boolean): JudgeOutcome => {
    const reply = jsonReply(answers)
    const fromStore = !waited && !body.log && Object.values(answers).every((answer) => answer.cached)
    if (candidate === null) return { reply, resolved, fromStore }
    const log = (line: string) => ctx.log(ctx.clean(line))
    const job = { live, results, candidate, row: body.row, cap, signal: ctx.shutdown, serverSpend }
    return { reply: { ...reply, after: () => shadowRow(ctx.runtime, job, log) }, resolved, fromStore: false }
  }
  return judged instanceof Promise ? judged.then((done) => outcome(done, true)) : outcome(judged, false)
}

/** POST /v1/judge: judges one row and answers each question (judgeBody). */
export const judgeEndpoint: Endpoint = async (ctx, request) => (await judgeBody(ctx, parseJudgeBody(await request.json()))).reply
