import type { Estimate } from '../core/stability/figures.ts'
import type { Project } from '../core/types.ts'
import { findJudgment } from '../core/spec/project.ts'
import type { App } from './app.ts'
import { accuracyReport } from './accuracy.ts'
import { latestStability } from './stability-latest.ts'

/** A question whose labels flip more often when asked again than the upper end of its error rate's interval. */
export interface NoiseFinding {
  readonly judgment: string
  readonly question: string
  readonly checked_at: string
  readonly flip_rate: Estimate
  /** The error rate (1 − the estimated accuracy) and its 95% interval. */
  readonly error: Estimate
}

/**
 * The questions of the named judgments whose latest flip rate (`judge stability`) is above their
 * error rate's 95% interval: the engine's run-to-run noise is then the larger part of the error.
 * Reads the accuracy of a judgment only when one of its questions was checked.
 */
export async function noiseAboveError(
  app: App,
  project: Project,
  judgments: readonly string[],
): Promise<NoiseFinding[]> {
  const findings: NoiseFinding[] = []
  for (const name of judgments) {
    const spec = findJudgment(project, name)
    const stability = latestStability(app, project, spec)
    if (stability === null) continue
    const report = await accuracyReport(app, project, spec)
    for (const [question, s] of Object.entries(stability)) {
      const estimate = report.questions[question]?.estimate
      if (!s?.flip_rate || !estimate?.interval || estimate.point === null) continue
      const error: Estimate = {
        point: 1 - estimate.point,
        interval: [1 - estimate.interval[1], 1 - estimate.interval[0]],
      }
      if (s.flip_rate.point > error.interval[1])
        findings.push({ judgment: name, question, checked_at: s.checked_at, flip_rate: s.flip_rate, error })
    }
  }
  return findings
}
