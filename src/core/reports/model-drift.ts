import type { ModelCheck } from '../types.ts'
import { tidy } from '../judge/answer.ts'
import { shares, totalVariation } from './drift.ts'

/** One question's labels under the old and the new model on the same rows of a model check. */
export interface ModelMixes {
  readonly old: Record<string, number>
  readonly new: Record<string, number>
  /** Rows compared (each state weighs as many rows as it had in the baseline run). */
  readonly rows: number
  /** Rows whose label the new model changed. */
  readonly flipped: number
}

/** The two models' label mixes of one question on a check's rows; null when no row was compared. */
export function modelMixes(check: ModelCheck, question: string): ModelMixes | null {
  const old: Record<string, number> = {}
  const now: Record<string, number> = {}
  let rows = 0
  let flipped = 0
  for (const p of check.pairs) {
    if (p.question !== question) continue
    old[p.old_label] = (old[p.old_label] ?? 0) + p.rows
    now[p.new_label] = (now[p.new_label] ?? 0) + p.rows
    rows += p.rows
    if (p.old_label !== p.new_label) flipped += p.rows
  }
  return rows === 0 ? null : { old: shares(old), new: shares(now), rows, flipped }
}

/**
 * The model part of a change: the total variation distance between the two models' label mixes
 * on the same rows. Null when the check compared no row of the question.
 */
export function modelChange(mixes: ModelMixes | null): number | null {
  return mixes === null ? null : totalVariation(mixes.old, mixes.new)
}

/**
 * The data part of a change: how far this run's mix is from the baseline's with the model held
 * at the new one. Zero when the two runs judged the same states on as many rows; otherwise the
 * baseline's mix is moved by what the new model did to the checked rows (their new mix minus
 * their old), and compared with this run's mix. Null when the check compared no row.
 */
export function dataChange(
  check: ModelCheck,
  mixes: ModelMixes | null,
  baseline: Readonly<Record<string, number>>,
  current: Readonly<Record<string, number>>,
): number | null {
  if (check.same_rows) return 0
  if (mixes === null) return null
  const moved: Record<string, number> = {}
  for (const label of new Set([...Object.keys(baseline), ...Object.keys(mixes.old), ...Object.keys(mixes.new)])) {
    moved[label] = Math.max(0, (baseline[label] ?? 0) + (mixes.new[label] ?? 0) - (mixes.old[label] ?? 0))
  }
  return totalVariation(shares(moved), current)
}

/** The share of a check's rows whose label the new model changed, for one question. */
export function flipShare(mixes: ModelMixes | null): number | null {
  return mixes === null ? null : tidy(mixes.flipped / mixes.rows)
}
