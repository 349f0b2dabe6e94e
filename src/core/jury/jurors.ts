import type { Engine } from '../../ports/engine.ts'
import type { Juror, Spec } from '../types.ts'

/** The prefix of a jury's model id: the answers a jury gives are kept under `jury:<juror>+<juror>…`. */
export const JURY_PREFIX = 'jury:'

/** One juror as its answers are kept: the juror as the spec names it, and the model id its answers are stored under. */
export interface SeatedJuror {
  readonly juror: Juror
  /** The model id of its answers (the engine's own id for it, e.g. a simulated one), the key of its cache. */
  readonly model: string
}

/**
 * A jury's jurors with the model ids their answers are kept under, in the spec's order; `engineOf` gives the engine
 * that asks a juror (its `engine`, or the configured one for null), whose `modelId` names its answers.
 */
export function seatJurors(
  jurors: readonly Juror[],
  engineOf: (juror: Juror) => Pick<Engine, 'modelId'> | null,
): SeatedJuror[] {
  return jurors.map((juror) => ({ juror, model: engineOf(juror)?.modelId?.(juror.model) ?? juror.model }))
}

/** The model id a jury's answers are kept under: its jurors' ids in the spec's order, joined by `+`. */
export function juryModelId(seated: readonly SeatedJuror[]): string {
  return JURY_PREFIX + seated.map((s) => s.model).join('+')
}

/** Whether answers kept under this model id are a jury's. */
export function isJury(model: string): boolean {
  return model.startsWith(JURY_PREFIX)
}

/** The jurors' model ids a jury's model id names (juryModelId's inverse), in order; null for one model's id. */
export function jurorModelsOf(model: string): string[] | null {
  return isJury(model) ? model.slice(JURY_PREFIX.length).split('+') : null
}

/** Whether a spec names a jury (`models:`) rather than one model. */
export function hasJury(spec: Pick<Spec, 'jurors'>): spec is Pick<Spec, 'jurors'> & { jurors: readonly Juror[] } {
  return spec.jurors !== null && spec.jurors.length > 0
}
