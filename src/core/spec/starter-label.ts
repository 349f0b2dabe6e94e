import { orderedLevels } from './ordered-levels.ts'
import { QUESTION_NAME } from './spec-questions.ts'

/** The most labels a first question takes from a column: past that, the column is not a set of labels. */
export const MAX_LABELS = 20

/** A question built from a data file's label column: its name, type and labels, and its YAML lines. */
export interface LabelQuestion {
  readonly column: string
  readonly name: string
  readonly type: 'yes_no' | 'choice' | 'scale'
  readonly labels: readonly string[]
  readonly yaml: string
}

/** Why a column's values cannot be a question's labels, or null when they can. */
export function labelProblem(column: string, labels: readonly string[]): string | null {
  if (labels.length < 2)
    return (
      `the column "${column}" holds ${labels.length === 0 ? 'no value' : `one value only ("${labels[0]}")`}; ` +
      'a question needs at least 2 labels'
    )
  if (labels.length > MAX_LABELS)
    return `the column "${column}" holds ${labels.length} different values; a question takes up to ${MAX_LABELS} labels`
  const bad = labels.find((l) => /\p{Cc}/u.test(l))
  return bad === undefined
    ? null
    : `the value ${JSON.stringify(bad)} of the column "${column}" holds a control character`
}

/** The question name a column gives: `Is Spam` -> `is_spam`; `label` when nothing usable is left. */
export function questionNameOf(column: string): string {
  const name = column
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return QUESTION_NAME.test(name) && name !== '__proto__' ? name : 'label'
}

/**
 * The first question of a starter spec, asking for the labels a column holds: yes_no when they are yes and no, a
 * scale in their natural order when they have one (src/core/spec/ordered-levels.ts), else a choice, sorted.
 */
export function labelQuestion(
  column: string,
  labels: readonly string[],
  text: (value: string) => string,
): LabelQuestion {
  const name = questionNameOf(column)
  const sorted = [...labels].sort()
  const ordered = orderedLevels(labels)
  const type =
    sorted.length === 2 && sorted[0] === 'no' && sorted[1] === 'yes' ? 'yes_no' : ordered ? 'scale' : 'choice'
  const listed = type === 'scale' ? ordered! : sorted
  const describe = 'describe each (label: what it means) so the engine can tell them apart'
  const body =
    type === 'yes_no'
      ? '    type: yes_no\n'
      : type === 'scale'
        ? `    type: scale\n    labels:            # the values of ${text(column)}, ordered low -> high; ${describe}\n`
        : `    labels:            # the values of ${text(column)}, in no order judge knows (a scale lists them low ` +
          `-> high with type: scale); ${describe}\n`
  const yaml = `  # Asks for what the column ${text(column)} holds; the answer key (key:) has its values, \
so judge test scores it.
  ${name}:
    ask: Which ${column} fits this row?
${body}${type === 'yes_no' ? '' : listed.map((l) => `      ${text(l)}:\n`).join('')}`
  return { column, name, type, labels: type === 'yes_no' ? sorted : listed, yaml }
}
