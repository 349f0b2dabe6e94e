import { byReviewer, type Reviews } from '../review/double-review.ts'
import type { QuestionType } from '../types.ts'
import { ac1OfUnits, ac1Units, type RatedUnit } from '../stats/gwet-ac1-raters.ts'
import { jackknife } from '../stats/jackknife.ts'
import { alphaOfUnits, alphaUnits, type AlphaLevel } from '../stats/krippendorff-alpha.ts'

type Interval = readonly [number, number] | null

/** People against each other over every reviewer's verdicts, missing ones allowed. */
export interface RaterFigures {
  /** Gwet's multi-rater AC1 (irrCAC's gwet.ac1.raw), chance over the declared labels. */
  readonly ac1: number | null
  readonly ac1_interval: Interval
  /** Krippendorff's α at `alpha_level`. */
  readonly alpha: number | null
  readonly alpha_interval: Interval
  /** `ordinal` for a scale question, else `nominal`. */
  readonly alpha_level: AlphaLevel
}

/**
 * Each row of one question as a unit rated by its reviewers: each reviewer's latest standing verdict, its first saved
 * label (a verdict that saves none is a missing rating).
 */
export function ratedUnits(reviews: Reviews, judgment: string, question: string): RatedUnit[] {
  const units: RatedUnit[] = []
  for (const stack of reviews.values()) {
    const [first] = stack
    if (first === undefined || first.judgment !== judgment || first.question !== question) continue
    units.push(byReviewer(stack).flatMap((v) => (v.labels.length === 0 ? [] : [v.labels[0]])))
  }
  return units
}

/**
 * People's AC1 and α over every row's ratings, each with a 95% interval by the jackknife over rows
 * (docs/review.md, People against each other).
 */
export function raterFigures(
  units: readonly RatedUnit[],
  question: { readonly type: QuestionType; readonly labels: readonly string[] },
): RaterFigures {
  const level: AlphaLevel = question.type === 'scale' ? 'ordinal' : 'nominal'
  // Each unit read once; each of the jackknife's n replicates then sums the parts of n − 1 units (n² reads of the
  // ratings were about 10 ms a question for 450 rows).
  const ac1Parts = [{ share: 1, fpc: 1, rows: ac1Units(units, question.labels) }]
  const alphaParts = [{ share: 1, fpc: 1, rows: alphaUnits(units, question.labels) }]
  const ac1 = jackknife(ac1Parts, (s) => ac1OfUnits(s[0].rows, question.labels))
  const alpha = jackknife(alphaParts, (s) => alphaOfUnits(s[0].rows, question.labels.length, level))
  return {
    ac1: ac1?.point ?? null,
    ac1_interval: ac1?.interval ?? null,
    alpha: alpha?.point ?? null,
    alpha_interval: alpha?.interval ?? null,
    alpha_level: level,
  }
}
