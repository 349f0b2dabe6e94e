import type { QuestionAudit } from '../review/audit.ts'
import { STRATA, type Stratum } from '../review/strata.ts'

/** Two labels given to one row: `a` the model's (or a first reviewer's), `b` the reviewed one (or a second reviewer's). */
export interface LabelPair {
  readonly a: string
  readonly b: string
}

/** One stratum's labelled sample, with what it stands for in the population. */
export interface DesignStratum {
  readonly stratum: Stratum | 'all'
  /** The stratum's share of the answers that can be labelled, W_h = N'_h / Σ N'. */
  readonly share: number
  /** The answers each labelled row stands for, N'_h / n_h = N_h / k_h. */
  readonly weight: number
  /** The finite-population correction, 1 − k_h / N_h. */
  readonly fpc: number
  readonly rows: readonly LabelPair[]
}

/** A question's labelled sample as the agreement figures read it, or why there is none to read. */
export type Design = { readonly strata: readonly DesignStratum[] } | { readonly reason: string }

/**
 * The design of a question's audit: each stratum's labelled rows, each standing for N_h / k_h
 * answers (N_h / n_h when no row was ambiguous or lacked context), as the estimate weighs them
 * (docs/review.md, The estimate). A row's reviewed label is the model's when the model is among
 * its true labels (`both_ok`), else its first true label, as the pooled confusion table counts it.
 * None while a stratum with answers has no labelled row in its sample, unless it was reviewed whole.
 */
export function designOf(audit: QuestionAudit): Design {
  const samples = STRATA.map((s) => audit.strata[s]).filter((s) => s.size > 0)
  const missing = samples.filter((s) => s.rows.length === 0 && s.sampled < s.size).map((s) => s.stratum)
  if (missing.length > 0) return { reason: `no labelled sample in the ${missing.join(' and ')} stratum` }
  const labelled = samples.map((s) => (s.rows.length === 0 ? 0 : (s.size * s.rows.length) / s.sampled))
  const total = labelled.reduce((a, b) => a + b, 0)
  if (total === 0) return { reason: 'no labelled rows' }
  const strata = samples.flatMap((s, i): DesignStratum[] => s.rows.length === 0 ? [] : [{
    stratum: s.stratum, share: labelled[i] / total, weight: s.size / s.sampled, fpc: Math.max(0, 1 - s.sampled / s.size),
    rows: s.rows.map((r) => ({ a: r.label, b: r.correct ? r.label : r.truth[0] })),
  }])
  return { strata }
}

/** Rows that speak for themselves alone, as one stratum of equal weights without a finite population: two reviewers' pairs. */
export function simpleDesign(rows: readonly LabelPair[]): readonly DesignStratum[] {
  return [{ stratum: 'all', share: 1, weight: 1, fpc: 1, rows }]
}

/**
 * The variance of a linearized estimator under stratified random sampling, Σ_h W_h² (1 − f_h) S²_h / n_h,
 * from `within[h]`, the variance S²_h of the rows' influence values in stratum h. A stratum of one
 * row adds none: it has no variance to read.
 */
export function stratifiedVariance(strata: readonly DesignStratum[], within: readonly number[]): number {
  return strata.reduce((sum, s, h) => (s.rows.length < 2 ? sum : sum + (s.share * s.share * s.fpc * within[h]) / s.rows.length), 0)
}

/** The labels of a set of pairs: the question's first, in their order, then any other seen. */
export function labelsOf(strata: readonly DesignStratum[], known: readonly string[] = []): string[] {
  const labels = [...known]
  for (const s of strata) for (const r of s.rows) for (const l of [r.a, r.b]) if (!labels.includes(l)) labels.push(l)
  return labels
}
