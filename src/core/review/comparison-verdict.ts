import type { VerdictRecord } from './verdicts.ts'

/** The kind a comparison verdict is recorded under in the reviews file: never a kind of the review queue. */
export const COMPARE_KIND = 'compare'

/**
 * A comparison verdict: the true label of a row where the live and the candidate spec differ, given
 * on the comparison review (docs/shadow.md). It is a line of the reviews file with the kind
 * `compare` and the verdict `labeled`, and it never enters the live queue or its estimate: only the
 * comparison reads it (and counts it as a known label).
 */
export interface ComparisonRecord extends Omit<VerdictRecord, 'kind' | 'verdict'> {
  readonly kind: typeof COMPARE_KIND
  readonly verdict: 'labeled'
}

/** The latest comparison verdict per row, keyed by verdictKey. */
export type Comparisons = ReadonlyMap<string, ComparisonRecord>
