import type { SpendMeter } from './daily-spend.ts'
import type { JudgeDeps } from './deps.ts'
import { judgeOrdered, type RowResults } from './judge-row.ts'
import { createLedger } from './ledger.ts'
import { mergeAnswers, withDependencies } from './select.ts'
import type { Answers, Project, Row, Spec } from '../types.ts'

/** The answers to one row, and each judgment's full result. */
export interface OneRow {
  readonly answers: Answers
  readonly results: RowResults
}

/** How one row is judged: the ports, the cap in USD per judgment, the cancel signal, a spend meter across rows. */
export interface OneRowJob {
  readonly deps: JudgeDeps
  readonly cap: number
  readonly signal?: AbortSignal
  readonly spend?: SpendMeter
}

/** Judges one row with the selected judgments, store first within the cap, and merges their answers by question. */
export async function judgeOne(job: OneRowJob, project: Project, selected: readonly Spec[], row: Row): Promise<OneRow> {
  const judging = { deps: job.deps, ledger: createLedger(job.cap), signal: job.signal, spend: job.spend }
  const results = await judgeOrdered(judging, withDependencies(project, selected), { row, where: 'row' })
  return { answers: mergeAnswers(results, selected), results }
}
