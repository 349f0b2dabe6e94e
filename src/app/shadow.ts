import { dailySpend } from '../core/judge/daily-spend.ts'
import { timestamp } from '../core/judge/deps.ts'
import type { SpecResult } from '../core/judge/judge-row.ts'
import { judgeRow } from '../core/judge/judge-row.ts'
import { createLedger } from '../core/judge/ledger.ts'
import { pairJudgments, shadowAgreement, shadowPairsOf, type ShadowAgreement } from '../core/reports/shadow.ts'
import type { Project, Row, Spec } from '../core/types.ts'
import type { App } from './app.ts'

/** A shadow judgment to run once a live answer has been sent. */
export interface ShadowJob {
  readonly live: Project
  /** The live judgments' results for the row, as the caller was answered. */
  readonly results: readonly SpecResult[]
  readonly candidate: Project
  readonly row: Row
  readonly cap: number
  readonly signal?: AbortSignal
  /** As for judgeRequest: the candidate's spend is the server's too, under the same daily cap. */
  readonly serverSpend?: { readonly dailyCap: number | null }
}

/**
 * Judges the row with the candidate judgments that pair with the live ones (docs/shadow.md),
 * under the same cost cap, and records each shared question's live and candidate label in the live
 * store. It never throws: a failure is one line for `log` naming the judgments; it returns how it ended.
 */
export async function shadowRow(app: App, job: ShadowJob, log: (line: string) => void): Promise<ShadowResult> {
  const liveSelected = job.results.map((r) => r.spec)
  const candidates = pairJudgments(liveSelected, job.candidate.selected).map((p) => p.candidate)
  const what = `shadow ${names(candidates.length > 0 ? candidates : job.candidate.selected)} of ${names(liveSelected)}`
  try {
    if (candidates.length === 0) {
      log(`${what}: no candidate judgment has a live namesake; nothing judged`)
      return 'skipped'
    }
    const deps = app.depsFor(job.candidate)
    const spend = job.serverSpend ? dailySpend(deps.store, job.serverSpend.dailyCap, app.now) : undefined
    const judging = { deps, ledger: createLedger(job.cap), signal: job.signal, spend }
    const results = await judgeRow(judging, job.candidate, candidates, { row: job.row, where: 'shadow row' })
    const live = new Map(job.results.map((r) => [r.spec.name, r]))
    const at = timestamp(app.now())
    const pairs = shadowPairsOf(live, results, liveSelected, job.candidate.selected, at)
    if (pairs.length === 0) log(`${what}: no question in common; nothing compared`)
    // The candidate's questions are noted even without pairs: `judge cache` counts their answers as in use.
    const seen = candidates.flatMap((c) =>
      c.questions.map((q) => ({
        judgment: c.name,
        specHash: c.hash,
        question: q.name,
        fingerprint: q.fingerprint,
        seenAt: at,
      })),
    )
    app.depsFor(job.live).store.recordShadow(pairs, seen)
    return pairs.length === 0 ? 'skipped' : 'compared'
  } catch (error) {
    log(`${what} failed: ${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')}`)
    return 'failed'
  }
}

/** How a shadow judgment ended: its pairs recorded, nothing to compare, or an error (logged). */
export type ShadowResult = 'compared' | 'skipped' | 'failed'

function names(specs: readonly { readonly name: string }[]): string {
  return specs.map((s) => s.name).join(', ')
}

/**
 * Each shadow candidate's agreement with the live answers of one judgment, per question, from its store (none without
 * one).
 */
export function shadowAgreementOf(app: App, project: Project, spec: Spec): ShadowAgreement[] {
  return shadowAgreement(app.existingStore(project)?.shadowPairs(spec.name) ?? [])
}
