import t from 'tap'
import { looksLikeLabels, newTally, tallyValue, valuesShown } from '../../../src/core/spec/label-like.ts'

const tallyOf = (cells: readonly string[]) => {
  const tally = newTally()
  for (const cell of cells) tallyValue(tally, cell)
  return tally
}

t.test('few short values, each seen twice on average, look like labels', async (t) => {
  t.ok(looksLikeLabels(tallyOf(['low', 'high', ' low', 'high', ''])), 'trimmed; empty cells count for nothing')
  t.equal(valuesShown(tallyOf(['low', 'high', 'low'])), '2 values: low, high')
  t.notOk(looksLikeLabels(tallyOf(['low', 'high', 'low'])), 'three cells for two values: not twice each')
  t.notOk(looksLikeLabels(tallyOf(['low', 'low', 'low'])), 'one value is not labels')
  t.notOk(looksLikeLabels(tallyOf([])))
})

t.test('long values, control characters or more than 12 values are not labels, for good', async (t) => {
  const twice = (values: readonly string[]) => [...values, ...values]
  t.ok(looksLikeLabels(tallyOf(twice(Array.from({ length: 12 }, (_, i) => `v${i}`)))))
  const thirteen = tallyOf(twice(Array.from({ length: 13 }, (_, i) => `v${i}`)))
  t.equal(thirteen.values, null)
  t.equal(valuesShown(thirteen), '0 values: ')
  t.notOk(looksLikeLabels(tallyOf(twice(['a', 'x'.repeat(41)]))))
  t.ok(looksLikeLabels(tallyOf(twice(['a', 'x'.repeat(40)]))))
  t.notOk(looksLikeLabels(tallyOf(twice(['a', 'b\u0007']))))
  const stopped = tallyOf(['x'.repeat(41), 'a', 'a'])
  t.match(stopped, { values: null, filled: 3 }, 'counted, but never labels again')
})
