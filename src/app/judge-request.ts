import { dailySpend } from '../core/judge/daily-spend.ts'
import { timestamp } from '../core/judge/deps.ts'
import { judgeOneNow, type OneRow } from '../core/judge/judge-one.ts'
import type { SpecResult } from '../core/judge/judge-row.ts'
import { selectJudgments } from '../core/judge/select.ts'
import type { Answers, Project, Row, Spec } from '../core/types.ts'
import type { App } from './app.ts'

/** One row to judge, as the library and `POST /v1/judge` take it. */
export interface JudgeInput {
  readonly project: Project
  readonly row: Row
  /** Return only this judgment's answers; needed for a folder whose judgments share a question name. */
  readonly node?: string | null
  /** Cap in USD per judgment for this row. */
  readonly cap: number
  /** Keep the row so that a candidate can be replayed on it later. */
  readonly log?: boolean
  readonly signal?: AbortSignal
  /** Count the engine spend as the server's, refusing new rows once `dailyCap` USD (null: none) is spent today. */
  readonly serverSpend?: { readonly dailyCap: number | null }
}

/** The answers, merged by question, and the selected judgments' full results. */
export interface Judged {
  readonly answers: Answers
  readonly results: readonly SpecResult[]
}

/**
 * The judge operation on one row: the selected judgments (and what they depend on) answered store
 * first, the rest asked within the cap; with `log`, each selected judgment keeps the row.
 */
export async function judgeRequest(app: App, input: JudgeInput): Promise<Judged> {
  return judgeRequestNow(app, input)
}

/**
 * judgeRequest without a promise when the store holds every answer (the server answers such rows
 * without waiting on anything); a row with anything to ask gives the promise judgeRequest gives.
 */
export function judgeRequestNow(app: App, input: JudgeInput): Judged | Promise<Judged> {
  const deps = app.depsFor(input.project)
  const selected = selectJudgments(input.project, input.node, 'merged')
  const spend = input.serverSpend ? dailySpend(deps.store, input.serverSpend.dailyCap, app.now) : undefined
  const one = judgeOneNow({ deps, cap: input.cap, signal: input.signal, spend }, input.project, selected, input.row)
  const finish = ({ answers, results }: OneRow): Judged => {
    const live = selected.map((s: Spec) => results.get(s.name)!)
    if (input.log) {
      const at = timestamp(app.now())
      for (const r of live) deps.store.keepRow(r.spec.name, r.stateHash, r.state, at)
    }
    return { answers, results: live }
  }
  return one instanceof Promise ? one.then(finish) : finish(one)
}
