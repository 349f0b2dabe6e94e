import { strataState } from '../core/allocation/neyman.ts'
import { targetFigures, type TargetFigures } from '../core/allocation/reviews-needed.ts'
import { modelFor } from '../core/judge/deps.ts'
import { selectJudgments } from '../core/judge/select.ts'
import { resolutionOf } from '../core/tally/cells.ts'
import { scoreJudgment } from '../core/review/accuracy.ts'
import { actBlock } from '../core/review/act-block.ts'
import { questionSample, weightedRows, type QuestionSample } from '../core/review/sample-design.ts'
import { questionAgreement, type QuestionAgreement } from '../core/agreement/agreement.ts'
import { calibration, type Calibration } from '../core/review/calibration.ts'
import { countingVerdicts } from '../core/review/double-review.ts'
import { estimateAccuracy, type AccuracyEstimate } from '../core/review/estimate.ts'
import { labelMix, type LabelMix } from '../core/review/label-mix.ts'
import { DEFAULT_TARGET, routeThresholds, type RouteThresholds } from '../core/review/thresholds.ts'
import type { Project, SourceCounts, Spec } from '../core/types.ts'
import type { App } from './app.ts'
import { juryQuestions, type JuryQuestion } from './juror-accuracy.ts'
import { sampleDesigns } from './sample-design.ts'
import { currentLabels } from './review-data.ts'
import { latestStability, type StabilityFigures } from './stability-latest.ts'

/** Everything the accuracy report says of one question. */
export interface QuestionAccuracy {
  readonly ask: string
  readonly labels: readonly string[]
  /** The stratified estimate, with the pooled (naive) figure beside it. */
  readonly estimate: AccuracyEstimate
  readonly calibration: Calibration
  /** Each tunable `act` rule of the question with its suggested threshold. */
  readonly thresholds: readonly RouteThresholds[]
  /**
   * The store's answers of the question by how their p was obtained; with `text` among them, its thresholds and routes
   * on p or margin mean nothing (core/tally/sources.ts, answeredFromText).
   */
  readonly sources: SourceCounts
  readonly mix: LabelMix
  /** The model against people, people against each other, the key against people (docs/review.md, Agreement). */
  readonly agreement: QuestionAgreement
  /** The half-width of the accuracy interval the spec asks for (`accuracy_target`), or null. */
  readonly accuracy_target: number | null
  /**
   * The reviews per stratum still needed to reach it (docs/review.md, The reviews it takes); null without a target or
   * answers.
   */
  readonly reviews_needed: TargetFigures['reviews_needed']
  /** A jury spec's: the jury's accuracy on the rows its jurors are compared on (docs/review.md, What a juror buys). */
  readonly jury?: JuryQuestion['jury']
  /** A jury spec's: each juror's accuracy on the same rows, against the jury's, and its estimated cost. */
  readonly jurors?: JuryQuestion['jurors']
}

/** The accuracy report of one judgment: the one data object behind `judge calibrate`, GET /v1/accuracy and the page. */
export interface AccuracyReport {
  readonly judgment: string
  /** The model whose answers are reported; null when there is no store yet and the spec names none. */
  readonly model: string | null
  readonly unsure_below: number
  readonly key_sample: Spec['keySample']
  /** The precision a suggested threshold reaches at the lower end of its interval. */
  readonly target: number
  /** Per question, in spec order. */
  readonly questions: Readonly<Record<string, QuestionAccuracy>>
  /** The spec's `act` block with the suggested thresholds, to paste; null when the spec has no `act`. */
  readonly act: string | null
  /**
   * Each question's latest stability check (`judge stability`, docs/engine.md); null when none was made. Always given
   * by accuracyReport.
   */
  readonly stability?: StabilityFigures | null
}

/** What the report is made for: one judgment of a project, and the precision target. */
export interface AccuracyInput {
  readonly project: Project
  readonly judgment?: string | null
  readonly target?: number
}

/** The judgments an accuracy request covers: `judgment`, or every judgment the path selects. */
export function accuracyTargets(project: Project, judgment: string | null | undefined): Spec[] {
  return selectJudgments(project, judgment, 'all')
}

/**
 * The accuracy report of one judgment, from its store, answer key and reviews file, asking the
 * engine nothing: a project without a store yet reports no answers and creates none.
 */
export async function accuracyReport(
  app: App,
  project: Project,
  spec: Spec,
  target = DEFAULT_TARGET,
): Promise<AccuracyReport> {
  const [key, reviews] = await Promise.all([app.files.key(spec), app.files.reviews(spec)])
  const verdicts = countingVerdicts(reviews)
  const store = app.existingStore(project)
  // Without a store nothing is read, and the default model is not looked up: that would open one.
  const model = store ? modelFor(spec, app.depsFor(project)) : spec.model
  const source = store && { store, model: model!, spec, key, verdicts }
  const scores = scoreJudgment(spec, key, verdicts, source ? currentLabels(source) : new Map())
  const designs = source ? sampleDesigns(source) : new Map<string, QuestionSample>()
  const juries = juryQuestions({ spec, verdicts, source: store && { store, deps: app.depsFor(project) } })
  const questions = Object.fromEntries(
    spec.questions.map((q): [string, QuestionAccuracy] => {
      const sampleDesign =
        designs.get(q.name) ??
        questionSample({ question: q, unsureBelow: spec.unsureBelow, strata: NO_ROWS, known: new Map() })
      const cells = source ? source.store.answerCells(source.model, q.fingerprint, resolutionOf(spec, q)) : []
      return [
        q.name,
        {
          ask: q.ask,
          labels: q.labels,
          estimate: estimateAccuracy(sampleDesign, scores[q.name]),
          calibration: calibration(cells, weightedRows(sampleDesign)),
          thresholds: routeThresholds({
            question: q.name,
            rules: spec.act[q.name] ?? [],
            cells,
            sampleDesign,
            unsureBelow: spec.unsureBelow,
            target,
          }),
          sources: source ? source.store.countSources(source.model, q.fingerprint) : {},
          mix: labelMix(q.labels, cells, sampleDesign, spec.unsureBelow),
          agreement: questionAgreement({ judgment: spec.name, sampleDesign, reviews, key }),
          ...targetFigures(strataState(sampleDesign), spec.accuracyTarget),
          ...juries?.[q.name],
        },
      ]
    }),
  )
  const thresholds = Object.values(questions).flatMap((q) => q.thresholds)
  return {
    judgment: spec.name,
    model,
    unsure_below: spec.unsureBelow,
    key_sample: spec.keySample,
    target,
    questions,
    act: Object.keys(spec.act).length === 0 ? null : actBlock(spec.act, thresholds),
    stability: latestStability(app, project, spec),
  }
}

const NO_ROWS = { split: { size: 0, rows: [] }, unsure: { size: 0, rows: [] }, confident: { size: 0, rows: [] } }
