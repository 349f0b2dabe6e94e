import { createLedger } from '../core/judge/ledger.ts'
import { judgeRow, type SpecResult } from '../core/judge/judge-row.ts'
import { timestamp } from '../core/judge/deps.ts'
import { pairJudgments, shadowPairsOf } from '../core/reports/shadow.ts'
import type { Project, Row } from '../core/types.ts'
import type { Store } from '../ports/store.ts'
import type { ServerContext } from './context.ts'

/** A shadow judgment to run once a live answer has been sent. */
export interface ShadowJob {
  /** The live judgments' results for the row, as the caller was answered. */
  readonly live: readonly SpecResult[]
  /** The store of the live judgments, where the pairs are recorded. */
  readonly store: Store
  readonly candidate: Project
  readonly row: Row
}

/**
 * Judges the row with the candidate judgments that pair with the live ones (docs/shadow.md),
 * under the same cost cap, and records each shared question's live and candidate label. It never
 * throws: a failure is one line in the log naming the judgments, and the caller, answered
 * already, never hears of it.
 */
export async function runShadow(ctx: ServerContext, job: ShadowJob): Promise<void> {
  const liveSelected = job.live.map((r) => r.spec)
  const candidates = pairJudgments(liveSelected, job.candidate.selected).map((p) => p.candidate)
  const what = `shadow ${names(candidates.length > 0 ? candidates : job.candidate.selected)} of ${names(liveSelected)}`
  try {
    if (candidates.length === 0) return ctx.log(`${what}: no candidate judgment has a live namesake; nothing judged`)
    const deps = ctx.runtime.depsFor(job.candidate.dir)
    const results = await judgeRow({ deps, ledger: createLedger(ctx.config.serverMaxCost) }, job.candidate, candidates, { row: job.row, where: 'shadow row' })
    const live = new Map(job.live.map((r) => [r.spec.name, r]))
    const pairs = shadowPairsOf(live, results, liveSelected, job.candidate.selected, timestamp(ctx.now()))
    if (pairs.length === 0) ctx.log(`${what}: no question in common; nothing recorded`)
    else job.store.recordShadow(pairs)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    ctx.log(`${what} failed: ${ctx.clean(message).replace(/\s+/g, ' ')}`)
  }
}

function names(specs: readonly { readonly name: string }[]): string {
  return specs.map((s) => s.name).join(', ')
}
