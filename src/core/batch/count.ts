import { storedAnswers } from '../judge/judge-row.ts'
import { countState, emptyOutcome, type RowsOutcome } from '../judge/judge-rows.ts'
import type { JudgeDeps } from '../judge/deps.ts'
import type { Ledger } from '../judge/ledger.ts'
import { createStateTally } from '../judge/state-set.ts'
import type { SourcedRow, Spec } from '../types.ts'

/** A counter of a bulk run's rows once its batches have landed. */
export interface LandedCounter {
  add(sourced: SourcedRow): void
  /** The outcome; `unanswered` rows the store still lacks answers for. */
  result(): { readonly outcome: RowsOutcome; readonly unanswered: number }
}

/**
 * Counts the rows of a bulk run from the store once its batches have landed, judgments in
 * dependency order, as judgeRows counts rows it judges: each state's answers from the store once,
 * its later rows duplicates. A row the store does not answer in full is left out and counted apart.
 */
export function createLandedCounter(deps: JudgeDeps, ledger: Ledger, specs: readonly Spec[]): LandedCounter {
  const outcome = emptyOutcome(specs, () => createStateTally())
  let unanswered = 0
  return {
    add(sourced) {
      const results = storedAnswers(deps, specs, sourced)
      if (results === null) {
        unanswered += 1
        return
      }
      for (const result of results.values()) {
        const m = outcome.states.get(result.spec.name)!.count(result.stateHash)
        countState(outcome, result, m, 1)
        const tally = ledger.tally(result.spec.name)
        if (m === 1) tally.cached += result.spec.questions.length
        else tally.duplicates += 1
      }
    },
    result: () => ({ outcome, unanswered }),
  }
}
