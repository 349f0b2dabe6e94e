import { modelFor } from '../core/judge/deps.ts'
import type { Project, Spec } from '../core/types.ts'
import type { App } from './app.ts'

/** The model a report on a judgment's answers reads, and the other models the store holds answers of for the same questions. */
export interface AnswerModels {
  readonly judgment: string
  /** The model read: the spec's, else the configured one; null when there is no store yet and the spec names none. */
  readonly model: string | null
  /** Other models with answers to the judgment's questions as worded now, most answers first. */
  readonly others: readonly { readonly model: string; readonly answers: number }[]
}

/** Which model a command reads for a judgment, and which others the store holds answers of. Reading creates no store. */
export function answerModels(app: App, project: Project, spec: Spec): AnswerModels {
  const store = app.existingStore(project)
  if (!store) return { judgment: spec.name, model: spec.model, others: [] }
  const model = modelFor(spec, app.depsFor(project))
  const current = new Set(spec.questions.map((q) => q.fingerprint))
  const counts = new Map<string, number>()
  for (const group of store.answerGroups()) {
    if (group.model !== model && current.has(group.fingerprint)) counts.set(group.model, (counts.get(group.model) ?? 0) + group.answers)
  }
  const others = [...counts].map(([m, answers]) => ({ model: m, answers })).sort((a, b) => b.answers - a.answers || a.model.localeCompare(b.model))
  return { judgment: spec.name, model, others }
}
