import t from 'tap'
import { compare, parseComparison } from '../../../src/core/spec/comparison.ts'
import { SpecError } from '../../../src/errors.ts'

const file = '/specs/spam.judge.yaml'
const path = 'act.is_spam[0].when.p'

t.test('parses every operator with its number', async (t) => {
  for (const op of ['<', '<=', '>', '>=', '==', '!='] as const) {
    t.same(parseComparison(`${op} 0.5`, file, path), { op, value: 0.5, text: `${op} 0.5` })
  }
})

t.test('accepts missing or extra spaces and writes the text in one form', async (t) => {
  t.same(parseComparison('>=0.95', file, path), { op: '>=', value: 0.95, text: '>= 0.95' })
  t.same(parseComparison('  <   .3 ', file, path), { op: '<', value: 0.3, text: '< 0.3' })
  t.same(parseComparison('== 1', file, path), { op: '==', value: 1, text: '== 1' })
  t.same(parseComparison('> 0', file, path), { op: '>', value: 0, text: '> 0' })
})

t.test('rejects a bare number, naming both readings it could have', async (t) => {
  t.throws(() => parseComparison(0.9, file, path), {
    name: 'SpecError',
    keyPath: path,
    message: `${file}: ${path}: needs an operator: write ">= 0.9" or "< 0.9", not a bare 0.9`,
  })
  t.throws(() => parseComparison('0.9', file, path), { message: /needs an operator: write ">= 0.9"/ })
})

t.test('rejects numbers outside 0 to 1', async (t) => {
  t.throws(() => parseComparison('>= 1.5', file, path), {
    message: `${file}: ${path}: ">= 1.5": the number must be from 0 to 1`,
  })
  t.throws(() => parseComparison('> -0.1', file, path), { message: /"> -0.1" is not a comparison such as ">= 0.9"/ })
})

t.test('rejects unknown operators and text that is not a comparison', async (t) => {
  for (const text of ['= 0.5', '=> 0.5', '>= high', '>= 0.5 and < 0.9', '', '>=']) {
    const error = t.throws(() => parseComparison(text, file, path)) as SpecError
    t.match(
      error.message,
      /is not a comparison such as ">= 0.9" \(operators: < <= > >= == !=; a number from 0 to 1\)/,
      text,
    )
  }
})

t.test('rejects values that are not text', async (t) => {
  for (const value of [null, true, ['>= 0.5'], new Map()]) {
    t.throws(() => parseComparison(value, file, path), {
      keyPath: path,
      message: `${file}: ${path}: must be a comparison such as ">= 0.9" (operators: < <= > >= == !=; a number from 0 to 1)`,
    })
  }
})

t.test('compares a value with each operator', async (t) => {
  const c = (text: string) => parseComparison(text, file, path)
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('< 0.5'), v)),
    [true, false, false],
  )
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('<= 0.5'), v)),
    [true, true, false],
  )
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('> 0.5'), v)),
    [false, false, true],
  )
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('>= 0.5'), v)),
    [false, true, true],
  )
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('== 0.5'), v)),
    [false, true, false],
  )
  t.same(
    [0.4, 0.5, 0.6].map((v) => compare(c('!= 0.5'), v)),
    [true, false, true],
  )
})
