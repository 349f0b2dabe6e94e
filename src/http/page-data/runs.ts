import { listRuns, runHistoryOf, type Drift, type LikeDrift, type PublicRun } from '../../app/runs.ts'
import { shadowAgreementOf } from '../../app/shadow.ts'
import { runningOf } from '../../app/batch/running.ts'
import type { RunningRun } from '../../core/batch/running.ts'
import { selectJudgments } from '../../core/judge/select.ts'
import type { ShadowAgreement } from '../../core/reports/shadow.ts'
import { loadRequested, type HttpRequest, type ServerContext } from '../context.ts'
import { param } from '../params.ts'

/** What GET /runs shows and its JSON twin answers; GET /v1/runs and GET /v1/drift answer parts of it. */
export interface RunsData {
  /** The path as requested, relative to the served folder. */
  readonly path: string
  readonly node: string | null
  readonly runs: readonly PublicRun[]
  /** The runs whose batches are pending at the provider, newest first, with their counts as last seen. */
  readonly running: readonly RunningRun[]
  readonly judgments: readonly RunsJudgment[]
}

/** One judgment on the runs page: its drift, each question's labels in spec order, and when each run started. */
export interface RunsJudgment {
  readonly name: string
  /** Every run against the previous one (the interface's drift). */
  readonly drift: Drift
  /** Each run against the previous complete run of the same command and source. */
  readonly like: LikeDrift
  readonly labels: Readonly<Record<string, readonly string[]>>
  /** The start of each of its runs (UTC), by run id, for the charts' axes. */
  readonly started: Readonly<Record<string, string>>
  /** Each shadow candidate's agreement with this judgment's live answers, per question. */
  readonly shadows: readonly ShadowRow[]
}

/** A shadow candidate's agreement with the live answers of one question. */
export interface ShadowRow {
  readonly candidate: string
  readonly candidate_hash: string
  readonly question: string
  readonly rows: number
  readonly agree: number
  readonly agreement: number
  /** When the last pair was recorded (UTC). */
  readonly last: string
}

/**
 * The runs page's data, from the query's `path` and optional `node`: what GET /runs shows and its JSON twin answers.
 */
export function runsData(ctx: ServerContext, request: HttpRequest): RunsData {
  const path = param(request.query, 'path')
  const judgment = param(request.query, 'node')
  const project = loadRequested(ctx, path)
  return {
    path: path!,
    node: judgment,
    runs: listRuns(ctx.runtime, project, judgment),
    running: runningOf(ctx.runtime, project, judgment),
    judgments: selectJudgments(project, judgment, 'all').map((spec) => {
      const { drift, like, started } = runHistoryOf(ctx.runtime, project, spec)
      return {
        name: spec.name,
        drift,
        like,
        labels: Object.fromEntries(spec.questions.map((q) => [q.name, q.labels])),
        started,
        shadows: shadowAgreementOf(ctx.runtime, project, spec).map(shadowRow),
      }
    }),
  }
}

function shadowRow(s: ShadowAgreement): ShadowRow {
  return {
    candidate: s.candidate,
    candidate_hash: s.candidateHash,
    question: s.question,
    rows: s.rows,
    agree: s.agree,
    agreement: s.agreement,
    last: s.last,
  }
}
