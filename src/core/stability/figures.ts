import type { AnswerCell } from '../../ports/answer-store.ts'
import type { Reask } from '../../ports/reask-store.ts'
import { routeOf } from '../judge/route.ts'
import { STRATA, type Stratum } from '../review/strata.ts'
import { stratifiedMean, type MeanStratum } from '../stats/stratified-mean.ts'
import { flipChance, routeFlipChance, shareJitter } from './sampled.ts'
import type { ActRule } from '../types.ts'

/** How interval figures are computed, as reports name them. */
export const STABILITY_METHOD = 'stratified, design-weighted; Clopper-Pearson at the effective sample size'

/** A design-weighted share or mean over a question's answers, with its 95% interval. */
export interface Estimate {
  readonly point: number
  readonly interval: readonly [number, number]
}

/** What one stratum of a stability check holds. */
export interface StabilityStratum {
  readonly stratum: Stratum
  /** Answers in the stratum when it was drawn (N_h). */
  readonly size: number
  /** Its answers asked again (n_h), and how many of them came back with another label. */
  readonly reasked: number
  readonly flips: number
  /**
   * Of `reasked`, those read from the k draws their stored answer holds instead of asked (source `samples`): each
   * counts its chance of a flip (1 - p) in the rates, none in `flips`.
   */
  readonly from_samples: number
}

/** The stability of one question: how much its stored labels rest on which sample the engine happened to give. */
export interface QuestionStability {
  /** When the check was made (its id), and the model the engine reported for its answers. */
  readonly checked_at: string
  readonly reported_model: string
  readonly reasked: number
  readonly strata: readonly StabilityStratum[]
  /**
   * The share of answers whose label differs when asked again; null when a stratum with answers has none asked again.
   */
  readonly flip_rate: Estimate | null
  /** The mean |Δp| of the stored label's probability between the stored answer and the new one. */
  readonly p_jitter: Estimate | null
  /** The share whose `act` route would change; null when the question has no `act` rules. */
  readonly route_flip_rate: Estimate | null
  /**
   * The answers in the store whose p lies within the measured jitter of a `p` threshold of `act` (none when no jitter
   * was measured); null without a threshold.
   */
  readonly near_threshold: NearThreshold | null
  readonly method: string
}

/** The answers near a threshold of `act`: within the measured jitter, where noise that size could move their route. */
export interface NearThreshold {
  /** The `p` thresholds of the question's `act` rules, lowest first. */
  readonly thresholds: readonly number[]
  /** The jitter they are measured against: the point of `p_jitter`. */
  readonly within: number
  readonly count: number
  /** Of every answer of the question in the store. */
  readonly share: number
  readonly answers: number
}

/**
 * What the stability of a question is made from: its `act` rules, the re-asks of one check, and every answer's cell.
 */
export interface StabilityInput {
  readonly rules: readonly ActRule[]
  readonly reasks: readonly Reask[]
  /**
   * The question's answers counted by label, p and margin (exact resolution), read only when a figure needs them: when
   * the question has re-asks, a p threshold and a jitter (reading them walks every answer of the question).
   */
  readonly cells: () => readonly AnswerCell[]
}

/** The stability figures of a question from one check's re-asks; null when it has none. */
export function questionStability({ rules, reasks, cells }: StabilityInput): QuestionStability | null {
  if (reasks.length === 0) return null
  const strata = STRATA.map((stratum) => reasks.filter((r) => r.stratum === stratum))
  const measure = (value: (r: Reask) => number): Estimate | null => {
    const result = stratifiedMean(
      strata.map((rs): MeanStratum => ({ size: rs[0]?.stratumSize ?? 0, values: rs.map(value) })),
    )
    return result && { point: result.point, interval: result.interval }
  }
  // A re-ask read from the k draws a sampled answer holds counts its chances (core/stability/sampled.ts), not 0 or 1.
  const flipped = (r: Reask) => (r.samples ? flipChance(r) : r.label === r.storedLabel ? 0 : 1)
  const jitter = measure((r) =>
    r.samples ? shareJitter(r.samples, r.storedP) : Math.abs((r.distribution[r.storedLabel] ?? 0) - r.storedP),
  )
  const routed = (r: Reask) =>
    r.samples
      ? routeFlipChance(rules, r, r.samples)
      : routeOf(rules, { label: r.label, p: r.p, margin: r.margin }) ===
          routeOf(rules, { label: r.storedLabel, p: r.storedP, margin: r.storedMargin })
        ? 0
        : 1
  return {
    checked_at: reasks[0].check,
    reported_model: reasks[0].reportedModel,
    reasked: reasks.length,
    strata: strata.map((rs, i) => ({
      stratum: STRATA[i],
      size: rs[0]?.stratumSize ?? 0,
      reasked: rs.length,
      flips: rs.filter((r) => !r.samples && flipped(r) === 1).length,
      from_samples: rs.filter((r) => r.samples).length,
    })),
    flip_rate: measure(flipped),
    p_jitter: jitter,
    route_flip_rate: rules.length === 0 ? null : measure(routed),
    near_threshold: nearThreshold(rules, cells, jitter),
    method: STABILITY_METHOD,
  }
}

/**
 * The answers whose p lies within `jitter` of a `p` threshold of the rules: none when the jitter is 0 (asked again,
 * no p moved, so no route can); null without a threshold or a jitter.
 */
export function nearThreshold(
  rules: readonly ActRule[],
  cellsOf: () => readonly AnswerCell[],
  jitter: Estimate | null,
): NearThreshold | null {
  const thresholds = [...new Set(rules.flatMap((r) => (r.when.p ? [r.when.p.value] : [])))].sort((a, b) => a - b)
  if (thresholds.length === 0 || jitter === null) return null
  const within = jitter.point
  const cells = cellsOf()
  const answers = cells.reduce((n, c) => n + c.count, 0)
  const near = (c: AnswerCell) => within > 0 && thresholds.some((t) => Math.abs(c.p - t) <= within + 1e-9)
  const count = cells.filter(near).reduce((n, c) => n + c.count, 0)
  return { thresholds, within, count, share: answers === 0 ? 0 : count / answers, answers }
}
