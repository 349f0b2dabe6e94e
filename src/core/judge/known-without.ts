import { hasJury } from '../jury/jurors.ts'
import type { Spec } from '../types.ts'
import { tellEngine } from './ask.ts'
import { jurorEngineOf, modelFor, seatedJurors, type JudgeDeps, type ModelDeps } from './deps.ts'

/**
 * tellEngine (ask.ts) for every model a plan of `specs` estimates, before it estimates: a spec's model with the
 * configured engine, a jury's jurors each with its own engine, each over the spec's questions.
 */
export function tellPlannedEngines(deps: ModelDeps & Pick<JudgeDeps, 'store'>, specs: readonly Spec[]): void {
  for (const spec of specs) {
    if (!hasJury(spec))
      tellEngine({ store: deps.store, engine: deps.engine ?? null }, modelFor(spec, deps), spec.questions)
    else
      for (const seat of seatedJurors(spec, deps))
        tellEngine({ store: deps.store, engine: jurorEngineOf(deps, seat.juror).engine }, seat.model, spec.questions)
  }
}
