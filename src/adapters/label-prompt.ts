import type { Question, State } from '../core/types.ts'

/** The instruction every chat model is given (its system prompt): answer with exactly one label. */
export const LABEL_SYSTEM =
  'You label data. Read the data and the question, then answer with exactly one of the labels listed, ' +
  'written as shown, and nothing else: no explanation, no punctuation.'

/**
 * The user's message for one question, the same for every chat engine: the data as JSON, the
 * question, its labels with their descriptions, and the ask for one label.
 */
export function labelPrompt(state: State, question: Question): string {
  const labels = question.labels.map((label, i) =>
    question.descriptions[i] ? `- ${label}: ${question.descriptions[i]}` : `- ${label}`,
  )
  return (
    `Data:\n${JSON.stringify(state)}\n\nQuestion: ${question.ask}\n\nLabels:\n${labels.join('\n')}\n\nAnswer ` +
    'with one label.'
  )
}

/** Input tokens of a prompt's messages, estimated before asking: a quarter of their characters, plus 8 per message. */
export function estimateMessageTokens(contents: readonly string[]): number {
  return contents.reduce((sum, content) => sum + Math.ceil(content.length / 4) + 8, 0)
}
