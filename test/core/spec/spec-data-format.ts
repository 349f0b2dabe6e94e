import t from 'tap'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'

const BASE = 'name: s\nstate: [message]\nquestions:\n  q:\n    ask: Is it?\n    type: yes_no\n'

t.test(
  'delimiter: and columns: say how the data file is read; without them, by its extension and header',
  async (t) => {
    t.same(parseSpec(BASE, '/p/s.judge.yaml').dataFormat, { delimiter: null, columns: null })
    t.same(parseSpec(BASE + 'delimiter: ";"\ncolumns: [label, message]\n', '/p/s.judge.yaml').dataFormat, {
      delimiter: ';',
      columns: ['label', 'message'],
    })
    t.same(parseSpec(BASE + 'delimiter: tab\n', '/p/s.judge.yaml').dataFormat?.delimiter, '\t')
    t.same(parseSpec(BASE + 'delimiter: "\\t"\n', '/p/s.judge.yaml').dataFormat?.delimiter, '\t')
  },
)

t.test('a delimiter of more than one character, or bad column names, are spec errors naming the key', async (t) => {
  t.throws(() => parseSpec(BASE + 'delimiter: ";;"\n', '/p/s.judge.yaml'), {
    name: 'SpecError',
    message: /delimiter: must be one character/,
  })
  t.throws(() => parseSpec(BASE + 'delimiter: 3\n', '/p/s.judge.yaml'), {
    message: /delimiter: must be one character .* not the number 3/,
  })
  t.throws(() => parseSpec(BASE + 'columns: []\n', '/p/s.judge.yaml'), {
    message: /columns: needs at least one column name/,
  })
  t.throws(() => parseSpec(BASE + 'columns: [a, ""]\n', '/p/s.judge.yaml'), {
    message: /columns\[1\]: must be a column name/,
  })
  t.throws(() => parseSpec(BASE + 'columns: [a, a]\n', '/p/s.judge.yaml'), {
    message: /columns\[1\]: the column "a" is listed twice/,
  })
  t.throws(() => parseSpec(BASE + 'columns: a\n', '/p/s.judge.yaml'), { message: /columns: must be a list/ })
})
