import { isSimulated } from '../core/engine-kinds.ts'
import { modelFor } from '../core/judge/deps.ts'
import { jurorModelsOf } from '../core/jury/jurors.ts'
import type { Project, Spec } from '../core/types.ts'
import type { App } from './app.ts'

/**
 * The model a report on a judgment's answers reads, and the other models the store holds answers of for the same
 * questions.
 */
export interface AnswerModels {
  readonly judgment: string
  /** The model read: the spec's, else the configured one; null when there is no store yet and the spec names none. */
  readonly model: string | null
  /** Answers of the model read to the judgment's questions as worded now; 0 without a store. */
  readonly answers: number
  /** Other models with answers to the judgment's questions as worded now, most answers first. */
  readonly others: readonly { readonly model: string; readonly answers: number }[]
}

/**
 * The setting that makes a command or the server read a model's answers: for a jury's (`jury:a+b`), the spec's
 * `models:` naming its jurors; ENGINE=simulated for the simulated engine's; else ENGINE_MODEL.
 */
export function settingFor(model: string): string {
  const jurors = jurorModelsOf(model)
  if (jurors) return `models: [${jurors.join(', ')}] in the spec`
  return isSimulated(model) ? 'ENGINE=simulated' : `ENGINE_MODEL=${model}`
}

/**
 * Which model a command reads for a judgment, and which others the store holds answers of. Reading creates no store.
 */
export function answerModels(app: App, project: Project, spec: Spec): AnswerModels {
  const store = app.existingStore(project)
  if (!store) return { judgment: spec.name, model: spec.model, answers: 0, others: [] }
  const model = modelFor(spec, app.depsFor(project))
  // From the store's counts: listing its answer groups would read every answer (a second for a million).
  const counts = store.modelAnswerCounts(spec.questions.map((q) => q.fingerprint))
  const others = [...counts]
    .filter(([m]) => m !== model)
    .map(([m, answers]) => ({ model: m, answers }))
    .sort((a, b) => b.answers - a.answers || a.model.localeCompare(b.model))
  return { judgment: spec.name, model, answers: counts.get(model) ?? 0, others }
}
