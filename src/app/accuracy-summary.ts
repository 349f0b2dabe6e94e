import { modelFor } from '../core/judge/deps.ts'
import type { Project, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { scoredQuestions } from './review-data.ts'

/** A question's accuracy in brief: the estimate over every answer, its interval, and the reviews waiting. */
export interface AccuracySummary {
  /** Answers of the question in the store, for the judgment's model and the question's wording. */
  readonly answers: number
  /** Whether each stratum's sample has a labelled row, so that the accuracy can be estimated. */
  readonly estimable: boolean
  /** The estimated accuracy over every answer; null when not estimable. */
  readonly estimate: number | null
  /** Its 95% interval; null when not estimable. */
  readonly interval: readonly [number, number] | null
  /** Reviews, in the queue's order, it takes before the accuracy can be estimated; 0 when it can. */
  readonly needed: number
  /** Disagreements with the answer key that wait for a verdict. */
  readonly pending: number
  /** Rows with a verdict. */
  readonly reviewed: number
}

/**
 * Each question's accuracy in brief, from the store, answer key and reviews file, asking the engine
 * nothing: the same estimate as `judge test` and GET /v1/accuracy. Without a store there are no
 * answers yet, and none is created.
 */
export async function accuracySummary(
  app: App,
  project: Project,
  spec: Spec,
): Promise<Record<string, AccuracySummary>> {
  const store = app.existingStore(project)
  if (store === null) return Object.fromEntries(spec.questions.map((q) => [q.name, NONE]))
  const [key, verdicts] = await Promise.all([app.files.key(spec), app.files.verdicts(spec)])
  const scores = scoredQuestions({ store, model: modelFor(spec, app.depsFor(project)), spec, key, verdicts })
  return Object.fromEntries(
    spec.questions.map((q): [string, AccuracySummary] => {
      const { estimate, pending, reviewed } = scores[q.name]
      return [
        q.name,
        {
          answers: estimate.strata.reduce((n, s) => n + s.size, 0),
          estimable: estimate.estimable,
          estimate: estimate.estimable ? estimate.point : null,
          interval: estimate.estimable ? estimate.interval : null,
          needed: estimate.needed,
          pending,
          reviewed,
        },
      ]
    }),
  )
}

const NONE: AccuracySummary = {
  answers: 0,
  estimable: false,
  estimate: null,
  interval: null,
  needed: 0,
  pending: 0,
  reviewed: 0,
}
