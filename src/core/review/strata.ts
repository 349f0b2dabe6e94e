import type { MarginBand } from '../../ports/answer-store.ts'

/**
 * The two strata of a question's answers: `unsure`, whose margin is below the spec's
 * `unsure_below`, and `confident`, the rest. The queue samples each at random on its own, so the
 * estimate can weigh each by its share of the answers (docs/review.md).
 */
export const STRATA = ['unsure', 'confident'] as const

/** A stratum of a question's answers. */
export type Stratum = (typeof STRATA)[number]

/** Whether a string names a stratum. */
export function isStratum(value: unknown): value is Stratum {
  return (STRATA as readonly unknown[]).includes(value)
}

/** The stratum of an answer with this margin. */
export function stratumOf(margin: number, unsureBelow: number): Stratum {
  return margin < unsureBelow ? 'unsure' : 'confident'
}

/** The margins of a stratum, as the store reads them. */
export function bandOf(stratum: Stratum, unsureBelow: number): MarginBand {
  return stratum === 'unsure' ? { from: -Infinity, below: unsureBelow } : { from: unsureBelow, below: Infinity }
}
