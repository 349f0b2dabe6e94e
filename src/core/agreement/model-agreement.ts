import type { QuestionSample } from '../review/sample-design.ts'
import { designOf, type DesignStratum } from './design.ts'
import { domainProportion } from '../stats/domain-proportion.ts'
import { cohenKappa } from '../stats/kappa.ts'
import { modelFigures, NO_MODEL_FIGURES, type ModelFigures } from './model-figures.ts'
import { labelScores, weightedConfusion, type LabelScore, type WeightedConfusion } from './label-scores.ts'

/** The model measured against the reviewed labels of the random sample, design-weighted. */
export interface ModelAgreement extends ModelFigures {
  /** Labelled rows of the sample the figures are computed from. */
  readonly rows: number
  /** Cohen's κ of the model against the reviewed labels; null with `reason`. */
  readonly kappa: number | null
  readonly kappa_interval: readonly [number, number] | null
  /** The weighted share of answers whose model label is the reviewed one: always beside κ. */
  readonly raw_agreement: number | null
  readonly raw_agreement_interval: readonly [number, number] | null
  readonly confusion: WeightedConfusion
  readonly per_label: Readonly<Record<string, LabelScore>>
  /** Why κ (or everything) is missing; null when κ is given. */
  readonly reason: string | null
}

/**
 * The model against people over a question's random sample (docs/review.md, Agreement): the
 * design-weighted confusion matrix, per-label precision, recall and F1, raw agreement and Cohen's
 * κ, each with a 95% interval, every row weighed by the answers of its stratum it stands for.
 */
export function modelAgreement(sampleDesign: QuestionSample): ModelAgreement {
  const labels = sampleDesign.question.labels
  const design = designOf(sampleDesign)
  if ('reason' in design) {
    return {
      rows: 0,
      kappa: null,
      kappa_interval: null,
      raw_agreement: null,
      raw_agreement_interval: null,
      ...NO_MODEL_FIGURES,
      confusion: weightedConfusion([], labels),
      per_label: labelScores([], labels),
      reason: design.reason,
    }
  }
  const strata: readonly DesignStratum[] = design.strata
  const raw = domainProportion(strata, { holds: () => true, succeeds: (r) => r.a === r.b })
  const kappa = cohenKappa(strata)
  return {
    rows: strata.reduce((n, s) => n + s.rows.length, 0),
    kappa: 'kappa' in kappa ? kappa.kappa : null,
    kappa_interval: 'kappa' in kappa ? kappa.interval : null,
    raw_agreement: raw?.point ?? null,
    raw_agreement_interval: raw?.interval ?? null,
    ...modelFigures(strata, sampleDesign.question),
    confusion: weightedConfusion(strata, labels),
    per_label: labelScores(strata, labels),
    reason: 'reason' in kappa ? kappa.reason : null,
  }
}
