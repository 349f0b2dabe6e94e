import { accuracyReport, type AccuracyReport } from '../../app/accuracy.ts'
import { lastRunFits, type LastRunFit } from '../../app/fit.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import { DEFAULT_TARGET } from '../../core/review/thresholds.ts'
import { UsageError } from '../../errors.ts'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

/** What GET /accuracy shows: one judgment's accuracy report, GET /v1/accuracy's body, and where it sits. */
export interface AccuracyPageData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  /** Every judgment the path selects, for moving between their reports. */
  readonly judgments: readonly string[]
  readonly report: AccuracyReport
  /**
   * The judgment's newest run's fit per question (app/fit.ts); null before a run kept one. Always given by
   * accuracyPageData.
   */
  readonly fit?: LastRunFit | null
}

/** The precision target a request asks for: `target`, a number between 0 and 1, default DEFAULT_TARGET. */
export function targetParam(raw: string | null): number {
  if (raw === null) return DEFAULT_TARGET
  const value = /^(0?\.\d{1,6}|0|1)$/.test(raw) ? Number(raw) : NaN
  if (!(value > 0 && value < 1))
    throw new UsageError(
      `target must be a number between 0 and 1, such as 0.95, not ${JSON.stringify(raw.slice(0, 40))}`,
    )
  return value
}

/** The accuracy data of the one judgment `node` names, or the only one the path selects. */
export async function accuracyPageData(ctx: ServerContext, request: HttpRequest): Promise<AccuracyPageData> {
  const { query } = request
  const path = param(query, 'path')
  const project = loadRequested(ctx, path)
  const target = targetParam(param(query, 'target'))
  const [spec] = selectJudgments(project, param(query, 'node'), 'one')
  const report = await accuracyReport(ctx.runtime, project, spec, target)
  return {
    path: path!,
    judgments: project.selected.map((s) => s.name),
    report,
    fit: lastRunFits(ctx.runtime, project, [spec])[0] ?? null,
  }
}
