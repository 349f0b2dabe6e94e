import { createLedger } from './ledger.ts'
import { judgeRow, type SpecResult } from './judge-row.ts'
import { type JudgeDeps } from './deps.ts'
import { mergeAnswers, selectJudgments } from './select.ts'
import type { Answers, Project, Row } from '../types.ts'

/** The answers to one row, and each judgment's full result. */
export interface OneRow {
  readonly answers: Answers
  readonly results: ReadonlyMap<string, SpecResult>
}

/**
 * The judge operation on one row: selects the judgments (`node`, or every judgment of the path),
 * judges them store first within `cap` USD per judgment, and merges their answers by question.
 */
export async function judgeOne(deps: JudgeDeps, project: Project, node: string | undefined, row: Row, cap: number, where = 'row'): Promise<OneRow> {
  const selected = selectJudgments(project, node)
  const results = await judgeRow({ deps, ledger: createLedger(cap) }, project, selected, { row, where })
  return { answers: mergeAnswers(results, selected), results }
}
