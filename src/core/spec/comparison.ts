import { SpecError } from '../../errors.ts'
import type { Comparison } from '../types.ts'

type Op = Comparison['op']

// Two-character operators first, so that "<=" is not read as "<" followed by "=0.5".
const PATTERN = /^\s*(<=|>=|==|!=|<|>)\s*(\d+(?:\.\d+)?|\.\d+)\s*$/
const BARE_NUMBER = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*$/
const EXAMPLE = 'a comparison such as ">= 0.9" (operators: < <= > >= == !=; a number from 0 to 1)'

/** Parses a comparison such as `">= 0.95"` from a spec; anything else is a SpecError at `keyPath`. */
export function parseComparison(text: unknown, file: string, keyPath: string): Comparison {
  if (typeof text === 'number' || (typeof text === 'string' && BARE_NUMBER.test(text))) {
    // A bare number reads as a threshold, but whether it is a floor or a ceiling is a guess.
    const n = String(text).trim()
    throw new SpecError(file, keyPath, `needs an operator: write ">= ${n}" or "< ${n}", not a bare ${n}`)
  }
  if (typeof text !== 'string') throw new SpecError(file, keyPath, `must be ${EXAMPLE}`)
  const match = PATTERN.exec(text)
  if (!match) throw new SpecError(file, keyPath, `"${text}" is not ${EXAMPLE}`)
  const op = match[1] as Op
  const value = Number(match[2])
  if (value > 1) throw new SpecError(file, keyPath, `"${text}": the number must be from 0 to 1`)
  return { op, value, text: `${op} ${value}` }
}

/** Whether `value` satisfies the comparison. */
export function compare(c: Comparison, value: number): boolean {
  switch (c.op) {
    case '<':
      return value < c.value
    case '<=':
      return value <= c.value
    case '>':
      return value > c.value
    case '>=':
      return value >= c.value
    case '==':
      return value === c.value
    case '!=':
      return value !== c.value
  }
}
