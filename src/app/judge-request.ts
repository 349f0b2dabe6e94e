import { dailySpend } from '../core/judge/daily-spend.ts'
import { timestamp } from '../core/judge/deps.ts'
import { judgeOne, type OneRow } from '../core/judge/judge-one.ts'
import type { SpecResult } from '../core/judge/judge-row.ts'
import { selectJudgments } from '../core/judge/select.ts'
import type { Answers, Project, Row } from '../core/types.ts'
import type { App } from './app.ts'

/** One row to judge, as the library and `POST /v1/judge` take it. */
export interface JudgeInput {
  readonly project: Project
  readonly row: Row
  /** Return only this judgment's answers; needed for a folder whose judgments share a question name. */
  readonly judgment?: string | null
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
  const deps = app.depsFor(input.project)
  const selected = selectJudgments(input.project, input.judgment, 'merged')
  const spend = input.serverSpend ? dailySpend(deps.store, input.serverSpend.dailyCap, app.now) : undefined
  const one = await judgeOne({ deps, cap: input.cap, signal: input.signal, spend }, input.project, selected, input.row)
  const judged = judgedOf(one, selected)
  if (input.log) {
    const at = timestamp(app.now())
    for (const r of judged.results) deps.store.keepRow(r.spec.name, r.stateHash, r.state, at)
  }
  return judged
}

function judgedOf(one: OneRow, selected: readonly { readonly name: string }[]): Judged {
  return { answers: one.answers, results: selected.map((s) => one.results.get(s.name)!) }
}
