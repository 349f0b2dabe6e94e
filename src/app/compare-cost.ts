import { estimateOf, samplesOf } from '../core/judge/ask.ts'
import { tokenCost } from '../core/judge/cost.ts'
import { jurorEngineOf, modelFor, seatedJurors, type JudgeDeps } from '../core/judge/deps.ts'
import { stateOf } from '../core/judge/state.ts'
import { hasJury } from '../core/jury/jurors.ts'
import type { Spec, State } from '../core/types.ts'
import type { KeptRow } from '../ports/kept-store.ts'

/** Who asks a spec's questions: its model on the configured engine, or each juror of a jury on its own engine. */
type Asker = Pick<JudgeDeps, 'engine' | 'pricePerMtok'> & { readonly model: string }

/**
 * A spec's cost of asking its own questions about 1,000 rows like the kept ones; null without kept rows or when a row
 * lacks a column. A jury's is the sum of its jurors', each at its own engine's estimate and price.
 */
export function costPer1000(
  deps: JudgeDeps,
  spec: Spec,
  kept: readonly Pick<KeptRow, 'state' | 'stateHash'>[],
): number | null {
  if (kept.length === 0 || spec.state.some((c) => c.ref)) return null
  const askers = askersOf(deps, spec)
  let cost = 0
  for (const k of kept) {
    if (!spec.state.every((c) => Object.hasOwn(k.state, c.name))) return null
    const state = stateOf(k.state, spec.state, k.stateHash)
    for (const asker of askers) cost += askCost(asker, spec, state)
  }
  return (cost / kept.length) * 1000
}

function askersOf(deps: JudgeDeps, spec: Spec): Asker[] {
  if (!hasJury(spec)) return [{ engine: deps.engine, pricePerMtok: deps.pricePerMtok, model: modelFor(spec, deps) }]
  return seatedJurors(spec, deps).map(({ juror, model }) => ({ ...jurorEngineOf(deps, juror), model }))
}

function askCost(asker: Asker, spec: Spec, state: State): number {
  const estimate = estimateOf(asker.engine ?? null, {
    model: asker.model,
    state,
    questions: spec.questions,
    ...samplesOf(spec),
  })
  return tokenCost(estimate.inputTokens, asker.pricePerMtok)
}
