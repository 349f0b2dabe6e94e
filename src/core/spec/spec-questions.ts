import { SpecError } from '../../errors.ts'
import { questionFingerprint } from './fingerprint.ts'
import type { Question, QuestionType } from '../types.ts'
import { asMap, asText, checkKeys, describe, itemOf, keyOf, optional, required } from './spec-values.ts'
import type { YamlMap } from './spec-values.ts'

/** Question names: lowercase letters, digits and `_`. */
export const QUESTION_NAME = /^[a-z0-9_]+$/

const TYPES: readonly QuestionType[] = ['yes_no', 'choice', 'scale']
const KEYS: Readonly<Record<QuestionType, readonly string[]>> = {
  yes_no: ['ask', 'type', 'yes', 'no'],
  choice: ['ask', 'type', 'labels'],
  scale: ['ask', 'type', 'labels'],
}
/** The most levels a scale takes. */
export const MAX_SCALE = 10
// Labels travel through CSV files, HTML forms and URLs: keep them to one visible line.
const CONTROL = /\p{Cc}/u

interface Labels {
  readonly labels: string[]
  readonly descriptions: (string | null)[]
}

/** Parses and checks the `questions` mapping of a spec. */
export function parseQuestions(value: unknown, file: string): Question[] {
  const map = asMap(value, file, 'questions')
  if (map.size === 0) throw new SpecError(file, 'questions', 'needs at least one question')
  const questions: Question[] = []
  for (const [name, body] of map) {
    const path = keyOf('questions', name)
    if (!QUESTION_NAME.test(name) || name === '__proto__') {
      throw new SpecError(file, path, 'a question name must be lowercase letters, digits and _ ([a-z0-9_]+)')
    }
    questions.push(parseQuestion(name, body, file, path))
  }
  return questions
}

function parseQuestion(name: string, body: unknown, file: string, path: string): Question {
  const map = asMap(body, file, path)
  const type = parseType(optional(map, 'type'), file, keyOf(path, 'type'))
  if (type === 'yes_no' && map.has('labels')) {
    throw new SpecError(
      file,
      keyOf(path, 'labels'),
      'a yes_no question has the fixed labels yes and no; describe them with yes: and no: instead',
    )
  }
  checkKeys(map, KEYS[type], file, path)
  const ask = asText(required(map, 'ask', file, path), file, keyOf(path, 'ask'))
  const { labels, descriptions } = type === 'yes_no' ? yesNo(map, file, path) : parseLabels(map, type, file, path)
  return { name, ask, type, labels, descriptions, fingerprint: questionFingerprint(type, ask, labels, descriptions) }
}

function parseType(value: unknown, file: string, path: string): QuestionType {
  if (value === undefined) return 'choice'
  const type = TYPES.find((t) => t === value)
  if (!type) throw new SpecError(file, path, `must be one of ${TYPES.join(', ')}, not ${describe(value)}`)
  return type
}

function yesNo(map: YamlMap, file: string, path: string): Labels {
  const labels = ['yes', 'no']
  return { labels, descriptions: labels.map((l) => description(map.get(l), file, keyOf(path, l))) }
}

function parseLabels(map: YamlMap, type: QuestionType, file: string, path: string): Labels {
  const hint =
    type === 'choice' ? ' for a choice question (the default type; a yes/no question needs type: yes_no)' : ''
  const value = required(map, 'labels', file, path, hint)
  const labelsPath = keyOf(path, 'labels')
  const result = Array.isArray(value) ? labelList(value, file, labelsPath) : labelMap(value, file, labelsPath)
  const count = result.labels.length
  if (type === 'scale' && (count < 2 || count > MAX_SCALE)) {
    throw new SpecError(file, labelsPath, `a scale needs 2 to ${MAX_SCALE} levels, not ${count}`)
  }
  if (count < 2) throw new SpecError(file, labelsPath, 'needs at least 2 labels')
  return result
}

function labelList(value: readonly unknown[], file: string, path: string): Labels {
  const labels: string[] = []
  for (const [i, item] of value.entries()) {
    const label = checkLabel(item, file, itemOf(path, i))
    if (labels.includes(label)) throw new SpecError(file, itemOf(path, i), `the label "${label}" is listed twice`)
    labels.push(label)
  }
  return { labels, descriptions: labels.map(() => null) }
}

function labelMap(value: unknown, file: string, path: string): Labels {
  const map = asMap(value, file, path)
  const labels: string[] = []
  const descriptions: (string | null)[] = []
  for (const [label, text] of map) {
    labels.push(checkLabel(label, file, keyOf(path, label)))
    descriptions.push(description(text, file, keyOf(path, label)))
  }
  return { labels, descriptions }
}

/** Checks one label: text, not empty, no surrounding white space, no control characters. */
function checkLabel(value: unknown, file: string, path: string): string {
  if (typeof value !== 'string') {
    const hint = typeof value === 'number' || typeof value === 'boolean' ? `; quote it: "${String(value)}"` : ''
    throw new SpecError(file, path, `a label must be text, not ${describe(value)}${hint}`)
  }
  if (!value) throw new SpecError(file, path, 'a label must not be empty')
  if (value.trim() !== value) throw new SpecError(file, path, `the label "${value}" starts or ends with white space`)
  if (CONTROL.test(value)) {
    throw new SpecError(file, path, `the label ${JSON.stringify(value)} holds a control character`)
  }
  return value
}

// A description is what the engine reads as the label's criterion; empty means none.
function description(value: unknown, file: string, path: string): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string') throw new SpecError(file, path, `a description must be text, not ${describe(value)}`)
  return value.trim() || null
}
