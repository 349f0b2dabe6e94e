import { settingFor, type AnswerModels } from '../app/answer-models.ts'

/**
 * One line per judgment naming the model read, and the other models' answers the store holds for the same questions
 * with the setting that reads them.
 */
export function modelText(all: readonly AnswerModels[]): string {
  return all
    .map(({ judgment, model, others }) => {
      const read = `${judgment}: answers of model ${model ?? "the engine's default (no store yet)"}`
      if (others.length === 0) return `${read}\n`
      const held = others.map((o) => `${o.answers} of ${o.model} (${settingFor(o.model)} reads them)`).join(', ')
      return `${read}; the store also holds answers to these questions from other models: ${held}\n`
    })
    .join('')
}
