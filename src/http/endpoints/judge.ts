import { judgeOne } from '../../core/judge/judge-one.ts'
import { timestamp } from '../../core/judge/deps.ts'
import { type SpecResult } from '../../core/judge/judge-row.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import type { Row } from '../../core/types.ts'
import type { Store } from '../../ports/store.ts'
import { objectBody, optionalBoolean, optionalString, requiredObject } from '../body.ts'
import { loadRequested, type Endpoint } from '../context.ts'
import { jsonReply } from '../reply.ts'
import { runShadow } from '../shadow.ts'

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
  const selected = selectJudgments(live, body.node)
  const candidate = body.shadow === undefined ? null : loadRequested(ctx, body.shadow, 'shadow')
  const deps = ctx.runtime.depsFor(live.dir)
  const { answers, results } = await judgeOne(deps, live, body.node, body.row, ctx.config.serverMaxCost)
  const liveResults = selected.map((s) => results.get(s.name)!)
  if (body.log) keepRows(deps.store, liveResults, timestamp(ctx.now()))
  const reply = jsonReply(answers)
  if (candidate === null) return reply
  const job = { live: liveResults, store: deps.store, candidate, row: body.row }
  return { ...reply, after: () => runShadow(ctx, job) }
}

/** Keeps the row of each answered judgment for a later replay (`log: true`). */
function keepRows(store: Store, results: readonly SpecResult[], at: string): void {
  for (const r of results) store.keepRow(r.spec.name, r.stateHash, r.state, at)
}
