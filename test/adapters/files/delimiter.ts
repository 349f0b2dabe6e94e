import t from 'tap'
import {
  delimitedLine,
  delimitedName,
  delimiterOf,
  parseDelimiter,
  parseOptions,
  TAB,
} from '../../../src/adapters/files/delimiter.ts'

t.test('the delimiter follows the flag, else the extension', async (t) => {
  t.equal(delimiterOf('a.csv'), ',')
  t.equal(delimiterOf('a.TSV'), TAB)
  t.equal(delimiterOf('a.tab'), TAB)
  t.equal(delimiterOf('a.txt'), ',')
  t.equal(delimiterOf('a.tsv', ';'), ';', 'the flag wins')
  t.equal(delimiterOf('a.csv', null), ',')
})

t.test('--delimiter takes one character, or tab spelled out', async (t) => {
  t.equal(parseDelimiter('tab'), TAB)
  t.equal(parseDelimiter('\\t'), TAB)
  t.equal(parseDelimiter(TAB), TAB)
  t.equal(parseDelimiter(';'), ';')
  t.equal(parseDelimiter('|'), '|')
  for (const bad of ['', ';;', '"', '\n'])
    t.throws(() => parseDelimiter(bad), {
      name: 'UsageError',
      message: /--delimiter must be one character \(or "tab"\)/,
    })
})

t.test('tab-separated text takes no quotes; other delimiters quote as CSV does', async (t) => {
  t.same(parseOptions(TAB), { delimiter: TAB, quote: false })
  t.same(parseOptions(';'), { delimiter: ';', quote: '"' })
  t.equal(delimitedLine(['a', 'b;c', 1], ';'), 'a;"b;c";1\n')
  t.equal(delimitedLine(['say "hi"', 'x\ty\nz', null], TAB), 'say "hi"\tx y z\t\n')
  t.equal(delimitedName(','), 'CSV')
  t.equal(delimitedName(TAB), 'TSV')
  t.equal(delimitedName('|'), '"|"-separated text')
})
