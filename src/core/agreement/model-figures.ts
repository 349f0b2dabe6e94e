import type { QuestionType } from '../types.ts'
import { gwetAc1 } from '../stats/gwet-ac1.ts'
import { jackknife } from '../stats/jackknife.ts'
import { weightedKappa } from '../stats/weighted-kappa.ts'
import type { DesignStratum } from './design.ts'

type Interval = readonly [number, number] | null

/** The model against people beside κ: Gwet's AC1, and for a scale question the weighted κs. */
export interface ModelFigures {
  /** Gwet's AC1, its chance term over the question's declared labels. */
  readonly ac1: number | null
  readonly ac1_interval: Interval
  /** Weighted κ over the levels in order, linear weights; null unless the question is a scale. */
  readonly kappa_linear: number | null
  readonly kappa_linear_interval: Interval
  /** Weighted κ, quadratic weights; null unless the question is a scale. */
  readonly kappa_quadratic: number | null
  readonly kappa_quadratic_interval: Interval
}

/** Every figure missing: nothing reviewed to read them from. */
export const NO_MODEL_FIGURES: ModelFigures = {
  ac1: null,
  ac1_interval: null,
  kappa_linear: null,
  kappa_linear_interval: null,
  kappa_quadratic: null,
  kappa_quadratic_interval: null,
}

/**
 * AC1 and, for a scale, the linear and quadratic weighted κ of the model against the reviewed labels,
 * design-weighted as κ is (each row its stratum's share over its rows), each with a 95% interval by
 * the stratified jackknife (docs/review.md, The model against people).
 */
export function modelFigures(
  strata: readonly DesignStratum[],
  question: { readonly type: QuestionType; readonly labels: readonly string[] },
): ModelFigures {
  const ac1 = jackknife(strata, (s) => gwetAc1(s, question.labels))
  const scale = question.type === 'scale'
  const linear = scale ? jackknife(strata, (s) => weightedKappa(s, question.labels, 'linear')) : null
  const quadratic = scale ? jackknife(strata, (s) => weightedKappa(s, question.labels, 'quadratic')) : null
  return {
    ac1: ac1?.point ?? null,
    ac1_interval: ac1?.interval ?? null,
    kappa_linear: linear?.point ?? null,
    kappa_linear_interval: linear?.interval ?? null,
    kappa_quadratic: quadratic?.point ?? null,
    kappa_quadratic_interval: quadratic?.interval ?? null,
  }
}
