import type { Spec } from '../types.ts'
import { modelFor, type JudgeDeps } from './deps.ts'
import { answersOf, fingerprintsOf } from './judge-row.ts'
import { countState, emptyOutcome, type RowsOutcome } from './judge-rows.ts'
import type { Ledger } from './ledger.ts'
import type { StateTally } from './state-set.ts'

/**
 * The outcome of judging a source's rows whose every state the store answers, counted from their
 * plan's tallies (each judgment's distinct states with their rows) instead of row by row: each
 * state's answers are read once and its m rows counted at once, as judgeRows counts them a row at
 * a time (countState), so that the outcome and the ledger's tallies are the same. The judgments are
 * in dependency order (withDependencies), each with a tally whose states its plan knew in full.
 *
 * Null, with nothing counted and the tallies untouched, when the store lacks an answer of some
 * state (deleted since the plan): the rows are then judged one by one, asking what is missing.
 */
export function countFromPlan(
  deps: Pick<JudgeDeps, 'store' | 'engine' | 'defaultModel'>,
  ledger: Ledger,
  specs: readonly Spec[],
  tallies: ReadonlyMap<string, StateTally>,
): RowsOutcome | null {
  if (!specs.every((spec) => tallies.has(spec.name))) return null
  const outcome = emptyOutcome(specs, (spec) => tallies.get(spec.name)!)
  for (const spec of specs) {
    const model = modelFor(spec, deps)
    const fingerprints = fingerprintsOf(spec)
    for (const { stateHash, rows } of outcome.states.get(spec.name)!.entries()) {
      const stored = deps.store.getAnswers(model, stateHash, fingerprints)
      if (stored.size < fingerprints.length) return null
      countState(outcome, { spec, stateHash, answers: answersOf(spec, stored), stored }, rows, rows)
    }
  }
  // As judgeRows tallies them: a state's answers are from the store once, its later rows duplicates.
  for (const spec of specs) {
    const tally = ledger.tally(spec.name)
    const states = outcome.states.get(spec.name)!.size
    tally.cached += states * spec.questions.length
    tally.duplicates += outcome.rows.get(spec.name)! - states
  }
  return outcome
}
