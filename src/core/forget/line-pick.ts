import { UsageError } from '../../errors.ts'
import type { State } from '../types.ts'

/** What forgetting reads of one line of a reviews file to choose whether its state goes. */
export interface ReviewedState {
  readonly judgment: string
  readonly state_hash: string
  /** The line's state values; empty once forgotten. */
  readonly state: State
  readonly reviewed_at: string
}

/** Chooses the lines of a reviews file whose state cell is emptied. */
export type LinePick = (line: ReviewedState) => boolean

/**
 * The `state` cell of a line once its row is forgotten: an empty JSON object. Every reader of a
 * reviews file (this version's and older ones) takes it as a state of no columns, so the line
 * still counts as the verdict it is, by its state hash.
 */
export const FORGOTTEN_STATE = '{}'

/** A state column holding exactly one value: what `--match column=value` names. */
export interface ColumnMatch {
  readonly column: string
  readonly value: string
}

/** Reads `column=value` (split at the first `=`; the value may be empty or hold `=`), or a UsageError. */
export function parseMatch(text: string): ColumnMatch {
  const at = text.indexOf('=')
  if (at <= 0)
    throw new UsageError(
      '--match takes COLUMN=VALUE, a state column and the exact value to forget, ' +
        `not ${JSON.stringify(text.slice(0, 40))}`,
    )
  return { column: text.slice(0, at), value: text.slice(at + 1) }
}

/** Whether a state holds one of the matches. */
export function matchesState(state: State, matches: readonly ColumnMatch[]): boolean {
  return matches.some((m) => Object.hasOwn(state, m.column) && state[m.column] === m.value)
}

/** The lines of the rows forgotten: those of the given state hashes, and those whose state holds a match. */
export function pickRows(hashes: ReadonlySet<string>, matches: readonly ColumnMatch[] = []): LinePick {
  return holding((line) => hashes.has(line.state_hash) || matchesState(line.state, matches))
}

/** The lines of one judgment reviewed before `before` (a timestamp): what its retention forgets. */
export function pickBefore(judgment: string, before: string): LinePick {
  return holding((line) => line.judgment === judgment && line.reviewed_at < before)
}

// A line whose state is forgotten already holds nothing more to forget.
function holding(pick: LinePick): LinePick {
  return (line) => Object.keys(line.state).length > 0 && pick(line)
}
