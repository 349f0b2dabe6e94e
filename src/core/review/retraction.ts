import type { ComparisonRecord, Comparisons } from './comparison-verdict.ts'
import { countingVerdicts } from './double-review.ts'
import { verdictKey, type VerdictRecord, type Verdicts } from './verdicts.ts'

/** The `verdict` cell of a line that withdraws a verdict: the reviews file is appended to, never edited. */
export const RETRACTED = 'retracted'

/** An undo: it withdraws the latest standing verdict of one row (judgment, question, state hash). */
export interface Retraction {
  /** When the verdict was withdrawn: UTC timestamp without zone offset. */
  readonly retracted_at: string
  /** Who withdrew it. */
  readonly reviewer: string
  /** The verdict withdrawn; its line is repeated with `retracted` as the verdict and no labels. */
  readonly withdrawn: VerdictRecord
}

/** A line of a reviews file as read: a verdict, or the withdrawal of its row's latest verdict. */
export type ReviewLine =
  | { readonly type: 'verdict'; readonly record: VerdictRecord }
  | { readonly type: 'retraction'; readonly judgment: string; readonly question: string; readonly state_hash: string }
  | { readonly type: 'comparison'; readonly record: ComparisonRecord }

/**
 * The verdict that counts for each row, keyed by verdictKey, from the lines in file order: of the
 * row's standing verdicts (standingReviews), a reviewer's later verdict stands over their earlier
 * one, and between reviewers the rule of countingVerdict decides.
 */
export function standingVerdicts(lines: Iterable<ReviewLine>): Verdicts {
  return countingVerdicts(standingReviews(lines))
}

/**
 * Every standing verdict of each row in file order, keyed by verdictKey: a retraction withdraws
 * the row's latest standing verdict, so the one before it (if any) stands again. A retraction
 * with nothing to withdraw changes nothing.
 */
export function standingReviews(lines: Iterable<ReviewLine>): Map<string, VerdictRecord[]> {
  const stacks = new Map<string, VerdictRecord[]>()
  for (const line of lines) {
    if (line.type === 'verdict') {
      const { judgment, question, state_hash } = line.record
      const key = verdictKey(judgment, question, state_hash)
      // One lookup a line: a row's stack goes into the map once, when the row is first seen.
      let stack = stacks.get(key)
      if (stack === undefined) stacks.set(key, (stack = []))
      stack.push(line.record)
    } else if (line.type === 'retraction') {
      stacks.get(verdictKey(line.judgment, line.question, line.state_hash))?.pop()
    }
  }
  for (const [key, stack] of stacks) if (stack.length === 0) stacks.delete(key)
  return stacks
}

/**
 * The latest comparison verdict of each row, keyed by verdictKey: the lines of kind `compare`, which standingReviews
 * leaves out.
 */
export function comparisonsOf(lines: Iterable<ReviewLine>): Comparisons {
  const latest = new Map<string, ComparisonRecord>()
  for (const line of lines)
    if (line.type === 'comparison')
      latest.set(verdictKey(line.record.judgment, line.record.question, line.record.state_hash), line.record)
  return latest
}

/** The line a retraction is read back as. */
export function lineOfRetraction(retraction: Retraction): ReviewLine {
  const { judgment, question, state_hash } = retraction.withdrawn
  return { type: 'retraction', judgment, question, state_hash }
}
