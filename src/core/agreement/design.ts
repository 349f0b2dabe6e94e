import type { QuestionSample } from '../review/sample-design.ts'
import { STRATA, type Stratum } from '../review/strata.ts'
import type { LabelPair, PairStratum } from '../stats/kappa.ts'
import { finiteCorrection, stratumShares, unread } from '../stats/stratified.ts'

export type { LabelPair } from '../stats/kappa.ts'

/**
 * One stratum's labelled sample, with what it stands for in the population: its share of the
 * answers that can be labelled (W_h = N'_h / Σ N'), its finite-population correction, its rows.
 */
export interface DesignStratum extends PairStratum {
  readonly stratum: Stratum | 'all'
  /** The answers each labelled row stands for, N'_h / n_h = N_h / k_h. */
  readonly weight: number
}

/** A question's labelled sample as the agreement figures read it, or why there is none to read. */
export type Design = { readonly strata: readonly DesignStratum[] } | { readonly reason: string }

/**
 * The design of a question's sample: each stratum's labelled rows, each standing for N_h / k_h
 * answers (N_h / n_h when no row was ambiguous or lacked context), as the estimate weighs them
 * (docs/review.md, The estimate). A row's reviewed label is the model's when the model is among
 * its true labels (`both_ok`), else its first true label, as the pooled confusion table counts it.
 * None while a stratum with answers has no labelled row in its sample, unless it was reviewed whole.
 */
export function designOf(sampleDesign: QuestionSample): Design {
  const samples = STRATA.map((s) => sampleDesign.strata[s]).filter((s) => s.size > 0)
  const counts = samples.map((s) => ({ size: s.size, sampled: s.sampled, counted: s.rows.length }))
  const missing = samples.filter((_, i) => unread(counts[i])).map((s) => s.stratum)
  if (missing.length > 0) return { reason: `no labelled sample in the ${missing.join(' and ')} stratum` }
  if (counts.every((c) => c.counted === 0)) return { reason: 'no labelled rows' }
  const shares = stratumShares(counts)
  const strata = samples.flatMap((s, i): DesignStratum[] =>
    s.rows.length === 0
      ? []
      : [
          {
            stratum: s.stratum,
            share: shares[i],
            weight: s.size / s.sampled,
            fpc: finiteCorrection(s),
            rows: s.rows.map((r) => ({ a: r.label, b: r.correct ? r.label : r.truth[0] })),
          },
        ],
  )
  return { strata }
}

/**
 * Rows that speak for themselves alone, as one stratum of equal weights without a finite population: two reviewers'
 * pairs.
 */
export function simpleDesign(rows: readonly LabelPair[]): readonly DesignStratum[] {
  return [{ stratum: 'all', share: 1, weight: 1, fpc: 1, rows }]
}

/** The labels of a set of pairs: the question's first, in their order, then any other seen. */
export function labelsOf(strata: readonly DesignStratum[], known: readonly string[] = []): string[] {
  const labels = [...known]
  for (const s of strata) for (const r of s.rows) for (const l of [r.a, r.b]) if (!labels.includes(l)) labels.push(l)
  return labels
}
