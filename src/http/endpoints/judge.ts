import { judgeRequest, storedRequest } from '../../app/judge-request.ts'
import { shadowRow } from '../../app/shadow.ts'
import type { Row } from '../../core/types.ts'
import { objectBody, optionalBoolean, optionalString, parseJson, requiredObject } from '../body.ts'
import { loadRequested, resolveRequested, type Endpoint, type ServerContext } from '../context.ts'
import { jsonReply, type Reply } from '../reply.ts'
import type { AnswerKey } from '../ops/server-metrics.ts'
import { judgedAttributes, traced } from '../ops/tracing.ts'
import type { Resolved } from '../resolved-paths.ts'

/** The fields of a POST /v1/judge body (docs/http-api.md). */
export const JUDGE_FIELDS = ['path', 'row', 'node', 'shadow', 'log'] as const

/** A POST /v1/judge body, checked for shape; `path` is checked when it is resolved. */
export interface JudgeBody {
  readonly path: unknown
  readonly row: Row
  readonly judgment: string | undefined
  readonly shadow: string | undefined
  readonly log: boolean
}

/** Checks a parsed body: a JSON object of the known fields with the right types, or a 400. */
export function parseJudgeBody(value: unknown): JudgeBody {
  const body = objectBody(value, JUDGE_FIELDS)
  return {
    path: body.path,
    row: requiredObject(body, 'row'),
    judgment: optionalString(body, 'node'),
    shadow: optionalString(body, 'shadow'),
    log: optionalBoolean(body, 'log') ?? false,
  }
}

/**
 * POST /v1/judge: judges one row within JUDGE_SERVER_MAX_COST per judgment. Every path is checked
 * before anything is asked, `shadow` included, so that a bad candidate is the caller's 400-class
 * error rather than a silent failure later; the candidate is judged once the reply has gone.
 */
export const judgeEndpoint: Endpoint = async (ctx, request) => {
  const body = parseJudgeBody(await request.json())
  const live = resolveRequested(ctx, body.path).project
  const candidate = body.shadow === undefined ? null : loadRequested(ctx, body.shadow, 'shadow')
  const cap = ctx.config.serverMaxCost
  const serverSpend = { dailyCap: ctx.config.serverMaxDailyCost }
  const input = {
    project: live,
    row: body.row,
    judgment: body.judgment,
    cap,
    log: body.log,
    signal: ctx.shutdown,
    serverSpend,
  }
  const judging = () => judgeRequest(ctx.runtime, input)
  const { answers, results } = await traced(
    'judge',
    { 'judge.log': body.log },
    judging,
    (judged) => judgedAttributes(judged.results),
    ctx.clean,
  )
  ctx.observer?.answered(results)
  const reply = jsonReply(answers)
  if (candidate === null) return reply
  const log = (line: string) => ctx.log(ctx.clean(line))
  const job = { live, results, candidate, row: body.row, cap, signal: ctx.shutdown, serverSpend }
  const shadowing = () => shadowRow(ctx.runtime, job, log)
  const shadowed = (result: string) => ({ 'judge.shadow.result': result })
  return {
    ...reply,
    after: async () =>
      void ctx.observer?.metrics?.shadow(
        await traced('judge.shadow', { 'judge.candidate': body.shadow! }, shadowing, shadowed, ctx.clean),
      ),
  }
}

/** A reply of POST /v1/judge made from the store alone, and the resolution of its path it holds under. */
export interface StoredReply {
  readonly reply: Reply
  readonly resolved: Resolved
  /** The answers it gives, by judgment, question and source, counted again each time the reply is reused. */
  readonly answers: readonly AnswerKey[]
}

/**
 * The reply to a POST /v1/judge body when the store holds every answer (storedRequest), made in
 * the turn the body ends. Null for a body the full endpoint must take: one with `log` or `shadow`,
 * a row with anything to ask, and any error, which the full endpoint then answers as it answers
 * every error.
 */
export function storedReply(ctx: ServerContext, text: string): StoredReply | null {
  try {
    const body = parseJudgeBody(parseJson(text))
    if (body.log || body.shadow !== undefined) return null
    const resolved = resolveRequested(ctx, body.path)
    const judged = storedRequest(ctx.runtime, { project: resolved.project, row: body.row, judgment: body.judgment })
    if (judged === null) return null
    return { reply: jsonReply(judged.answers), resolved, answers: ctx.observer?.answered(judged.results) ?? [] }
  } catch {
    return null
  }
}
