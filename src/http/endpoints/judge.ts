import { judgeRequest } from '../../app/judge-request.ts'
import { shadowRow } from '../../app/shadow.ts'
import type { SpecResult } from '../../core/judge/judge-row.ts'
import type { Row } from '../../core/types.ts'
import { objectBody, optionalBoolean, optionalString, requiredObject } from '../body.ts'
import { loadRequested, resolveRequested, type Endpoint } from '../context.ts'
import { jsonReply } from '../reply.ts'
import { keptReplies } from '../reply-cache.ts'
import { judgedAttributes, traced } from '../ops/tracing.ts'

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
 * error rather than a silent failure later; the candidate is judged once the reply has gone. A
 * reply the store gave in full, with nothing kept (`log`) or shadowed, is marked to be kept for
 * the same body while its path's resolution stands (judgeEndpoint).
 */
const judgeRowEndpoint: Endpoint = async (ctx, request) => {
  const body = parseJudgeBody(await request.json())
  const resolved = resolveRequested(ctx, body.path)
  const live = resolved.project
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
  const keys = ctx.observer?.answered(results) ?? []
  const reply = jsonReply(answers)
  if (candidate === null)
    return body.log || !allStored(results) ? reply : { ...reply, keep: { resolved, answers: keys } }
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

/** POST /v1/judge: judgeRowEndpoint behind the replies kept by request body (src/http/reply-cache.ts). */
export const judgeEndpoint: Endpoint = keptReplies(judgeRowEndpoint)

/** Whether every answer of the results came from the store: a reply made of them is the same the next time. */
function allStored(results: readonly SpecResult[]): boolean {
  return results.every((r) => Object.values(r.answers).every((answer) => answer.cached))
}
