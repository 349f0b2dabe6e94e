import { labelsOf, type DesignStratum } from './design.ts'
import { domainProportion, type Proportion } from '../stats/domain-proportion.ts'

/** Estimated answers per model label (outer key) and reviewed label (inner key). */
export type WeightedConfusion = Readonly<Record<string, Readonly<Record<string, number>>>>

/** How well the model's answers of one label match the reviewed ones; null where no sampled row speaks for it. */
export interface LabelScore {
  /** Of the answers the model gave this label, the share reviewed as it. */
  readonly precision: Proportion | null
  /** Of the answers reviewed as this label, the share the model gave it. */
  readonly recall: Proportion | null
  /** The harmonic mean of the two, 2TP / (2TP + FP + FN). */
  readonly f1: Proportion | null
}

/**
 * The design-weighted confusion matrix: each labelled row adds its weight (the answers of its
 * stratum it stands for) to its model label × reviewed label, so the cells add up to the answers
 * that can be labelled. Every label of the question appears, with zeros.
 */
export function weightedConfusion(strata: readonly DesignStratum[], known: readonly string[]): WeightedConfusion {
  const labels = labelsOf(strata, known)
  const table = Object.fromEntries(labels.map((m) => [m, Object.fromEntries(labels.map((r) => [r, 0]))])) as Record<
    string,
    Record<string, number>
  >
  for (const s of strata) {
    const counts = Map.groupBy(s.rows, (r) => `${r.a}\0${r.b}`)
    for (const [, rows] of counts) table[rows[0].a][rows[0].b] += rows.length * s.weight
  }
  return table
}

/**
 * Precision, recall and F1 of each label, design-weighted, each with a 95% interval
 * (domainProportion). F1 = 2J / (1 + J), with J = TP / (TP + FP + FN) the share of rows that both
 * sides gave the label among those either gave it; J is a domain proportion, and F1 rises with it,
 * so J's interval carried through the same map is F1's.
 */
export function labelScores(strata: readonly DesignStratum[], known: readonly string[]): Record<string, LabelScore> {
  const scores: Record<string, LabelScore> = {}
  for (const label of labelsOf(strata, known)) {
    const both = (r: { a: string; b: string }) => r.a === label && r.b === label
    const jaccard = domainProportion(strata, { holds: (r) => r.a === label || r.b === label, succeeds: both })
    const f1 = (j: number) => (2 * j) / (1 + j)
    scores[label] = {
      precision: domainProportion(strata, { holds: (r) => r.a === label, succeeds: both }),
      recall: domainProportion(strata, { holds: (r) => r.b === label, succeeds: both }),
      f1:
        jaccard === null
          ? null
          : { point: f1(jaccard.point), interval: [f1(jaccard.interval[0]), f1(jaccard.interval[1])] },
    }
  }
  return scores
}
