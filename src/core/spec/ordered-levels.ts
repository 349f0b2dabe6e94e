import { MAX_SCALE } from './spec-questions.ts'

// Levels with a natural order, low to high: a column whose values are some of one list, in any case and with
// spaces, `_` or `-` alike, is a scale in the list's order. The first list holding every value gives the order.
const ORDERED: readonly (readonly string[])[] = [
  ['very low', 'low', 'medium', 'high', 'very high'],
  ['very low', 'low', 'moderate', 'high', 'very high'],
  ['lowest', 'low', 'medium', 'high', 'highest'],
  ['low', 'mid', 'high'],
  ['low', 'normal', 'high', 'urgent'],
  ['low', 'medium', 'high', 'urgent'],
  ['low', 'medium', 'high', 'critical'],
  ['none', 'low', 'medium', 'high'],
  ['trivial', 'minor', 'major', 'critical', 'blocker'],
  ['never', 'rarely', 'sometimes', 'often', 'always'],
  ['never', 'seldom', 'sometimes', 'usually', 'always'],
  ['xxs', 'xs', 's', 'm', 'l', 'xl', 'xxl', 'xxxl'],
  ['xs', 's', 'm', 'l', 'xl', '2xl', '3xl'],
  ['extra small', 'small', 'medium', 'large', 'extra large'],
  ['tiny', 'small', 'medium', 'large', 'huge'],
  ['very poor', 'poor', 'fair', 'good', 'very good', 'excellent'],
  ['bad', 'ok', 'good'],
  ['terrible', 'bad', 'okay', 'good', 'great'],
  ['very bad', 'bad', 'neutral', 'good', 'very good'],
  ['strongly disagree', 'disagree', 'somewhat disagree', 'neutral', 'somewhat agree', 'agree', 'strongly agree'],
  ['strongly disagree', 'disagree', 'neither agree nor disagree', 'agree', 'strongly agree'],
  ['very unlikely', 'unlikely', 'neutral', 'likely', 'very likely'],
  ['very dissatisfied', 'dissatisfied', 'neutral', 'satisfied', 'very satisfied'],
  ['very unsatisfied', 'unsatisfied', 'neutral', 'satisfied', 'very satisfied'],
  ['very negative', 'negative', 'neutral', 'positive', 'very positive'],
  ['none', 'minimal', 'mild', 'moderate', 'severe', 'extreme'],
  ['none', 'mild', 'moderate', 'severe', 'critical'],
  ['cold', 'cool', 'warm', 'hot'],
  ['beginner', 'intermediate', 'advanced', 'expert'],
]

// An integer written plainly: `3`, `-1`, `10`; not `03` or `3.0`.
const INTEGER = /^-?(0|[1-9]\d*)$/
// A number: its order is numeric.
const NUMBER = /^-?\d+(\.\d+)?$/

/** A value as the lists hold it: lower case, its words one space apart. */
function levelKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
}

/**
 * The values of a label column in their natural order, low to high, as a scale takes them; null when they have none
 * that judge knows. Values some of one known list come in its order; numbers in numeric order, a range of integers
 * with the missing levels filled in (1, 2, 4, 5 is 1 to 5). Null past a scale's levels or for a single value.
 */
export function orderedLevels(values: readonly string[]): string[] | null {
  if (values.length < 2 || values.length > MAX_SCALE) return null
  return numberLevels(values) ?? listLevels(values)
}

function numberLevels(values: readonly string[]): string[] | null {
  if (!values.every((v) => NUMBER.test(v))) return null
  const numbers = values.map(Number)
  if (new Set(numbers).size !== values.length) return null
  const [low, high] = [Math.min(...numbers), Math.max(...numbers)]
  if (values.every((v) => INTEGER.test(v)) && high - low < MAX_SCALE)
    return Array.from({ length: high - low + 1 }, (_, i) => String(low + i))
  return [...values].sort((a, b) => Number(a) - Number(b))
}

function listLevels(values: readonly string[]): string[] | null {
  const keys = values.map(levelKey)
  if (new Set(keys).size !== values.length) return null
  const list = ORDERED.find((levels) => keys.every((k) => levels.includes(k)))
  if (list === undefined) return null
  const rank = (value: string) => list.indexOf(levelKey(value))
  return [...values].sort((a, b) => rank(a) - rank(b))
}
