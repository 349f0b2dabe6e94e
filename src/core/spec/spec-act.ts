import { SpecError } from '../../errors.ts'
import { parseComparison } from './comparison.ts'
import type { ActRule, Question } from '../types.ts'
import { asList, asMap, asText, checkKeys, describe, itemOf, keyOf, optional, required } from './spec-values.ts'

type Act = Record<string, readonly ActRule[]>

/** Parses and checks the `act` mapping of a spec: routing rules per question, in order. */
export function parseAct(value: unknown, questions: readonly Question[], file: string): Readonly<Act> {
  // No prototype: a question named `constructor` must not find Object's as its rules.
  const act: Act = Object.create(null)
  if (value === undefined || value === null) return act
  for (const [name, rules] of asMap(value, file, 'act')) {
    const path = keyOf('act', name)
    const question = questions.find((q) => q.name === name)
    if (!question) {
      const known = questions.map((q) => q.name).join(', ')
      throw new SpecError(file, path, `there is no question "${name}"; the questions are ${known}`)
    }
    const list = asList(rules, file, path)
    if (list.length === 0) throw new SpecError(file, path, 'needs at least one rule (or leave the question out of act)')
    act[name] = list.map((rule, i) => parseRule(rule, question, file, itemOf(path, i)))
  }
  return act
}

function parseRule(value: unknown, question: Question, file: string, path: string): ActRule {
  const map = asMap(value, file, path)
  checkKeys(map, ['route', 'when'], file, path)
  const route = asText(required(map, 'route', file, path), file, keyOf(path, 'route'))
  const whenValue = optional(map, 'when')
  if (whenValue === undefined) return { route, when: {} }
  const whenPath = keyOf(path, 'when')
  const when = asMap(whenValue, file, whenPath)
  checkKeys(when, ['label', 'p', 'margin'], file, whenPath)
  const label = optional(when, 'label')
  const p = optional(when, 'p')
  const margin = optional(when, 'margin')
  return {
    route,
    when: {
      ...(label !== undefined && { label: parseLabels(label, question, file, keyOf(whenPath, 'label')) }),
      ...(p !== undefined && { p: parseComparison(p, file, keyOf(whenPath, 'p')) }),
      ...(margin !== undefined && { margin: parseComparison(margin, file, keyOf(whenPath, 'margin')) }),
    },
  }
}

// `label: promotion` and `label: [promotion, service]` both mean "the answer is one of these".
function parseLabels(value: unknown, question: Question, file: string, path: string): string[] {
  const items = Array.isArray(value) ? value : [value]
  if (items.length === 0) throw new SpecError(file, path, 'needs at least one label')
  return items.map((item, i) => {
    const at = Array.isArray(value) ? itemOf(path, i) : path
    if (typeof item !== 'string' || !question.labels.includes(item)) {
      const known = question.labels.join(', ')
      const what = typeof item === 'string' ? `"${item}"` : describe(item)
      throw new SpecError(file, at, `${what} is not a label of ${question.name}; its labels are ${known}`)
    }
    return item
  })
}
