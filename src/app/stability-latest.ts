import { modelFor } from '../core/judge/deps.ts'
import { questionStability, type QuestionStability } from '../core/stability/figures.ts'
import type { Project, Spec } from '../core/types.ts'
import type { AnswerStore } from '../ports/answer-store.ts'
import type { Reask } from '../ports/reask-store.ts'
import type { App } from './app.ts'

/** The stability of a judgment's questions: each question's latest check, null for a question never checked. */
export type StabilityFigures = Readonly<Record<string, QuestionStability | null>>

/** Each question's figures from the given re-asks of it (its latest check's, or one check's). */
export function figuresOf(
  store: AnswerStore,
  spec: Spec,
  model: string,
  reasksOf: (fingerprint: string) => readonly Reask[],
): StabilityFigures {
  return Object.fromEntries(
    spec.questions.map((q) => [
      q.name,
      questionStability({
        rules: spec.act[q.name] ?? [],
        reasks: reasksOf(q.fingerprint),
        cells: () => store.answerCells(model, q.fingerprint, 'exact'),
      }),
    ]),
  )
}

/**
 * The latest stability figures of a judgment (`judge stability`), read from the store and asking
 * nothing; null when no question was ever checked, or there is no store yet (none is created).
 */
export function latestStability(app: App, project: Project, spec: Spec): StabilityFigures | null {
  const store = app.existingStore(project)
  if (store === null) return null
  const model = modelFor(spec, app.depsFor(project))
  const figures = figuresOf(store, spec, model, (fingerprint) => store.latestReasks(model, fingerprint))
  return Object.values(figures).every((f) => f === null) ? null : figures
}
