import type { Reviews } from '../review/double-review.ts'
import type { Verdict } from '../review/verdicts.ts'

/** The most disagreements a question lists, newest first. */
export const DISAGREEMENTS_SHOWN = 50

/** A standing verdict that did not keep the model's label, with the reviewer's note. */
export interface Disagreement {
  readonly state_hash: string
  readonly reviewed_at: string
  readonly reviewer: string
  readonly verdict: Verdict
  readonly model_label: string
  /** The labels the verdict saved; none for needs_context and ambiguous. */
  readonly labels: readonly string[]
  readonly note: string | null
}

/**
 * The standing verdicts of one question that disagree with the model (their labels leave the model's out, or they
 * save none), every reviewer's, newest first, at most DISAGREEMENTS_SHOWN; `total` counts them all.
 */
export function disagreementsOf(
  reviews: Reviews,
  judgment: string,
  question: string,
): { readonly total: number; readonly list: readonly Disagreement[] } {
  const all: Disagreement[] = []
  for (const stack of reviews.values())
    for (const v of stack) {
      if (v.judgment !== judgment || v.question !== question || v.labels.includes(v.model_label)) continue
      const { state_hash, reviewed_at, reviewer, verdict, model_label, labels } = v
      all.push({ state_hash, reviewed_at, reviewer, verdict, model_label, labels, note: v.note ?? null })
    }
  all.sort((a, b) => (a.reviewed_at < b.reviewed_at ? 1 : a.reviewed_at > b.reviewed_at ? -1 : 0))
  return { total: all.length, list: all.slice(0, DISAGREEMENTS_SHOWN) }
}
