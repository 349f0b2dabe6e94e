import t from 'tap'
import { headerlessReason, suggestedColumns } from '../../../src/core/spec/header-guess.ts'

t.test(
  'a header line is taken as one; a number, a recurring value or a long text says the line is a row',
  async (t) => {
    t.equal(
      headerlessReason(
        ['label', 'message'],
        [
          ['ham', 'Ok lar'],
          ['spam', 'Win'],
        ],
      ),
      null,
    )
    t.equal(headerlessReason(['', 'message'], []), null, 'an empty cell says nothing')
    t.equal(
      headerlessReason(
        ['ham', 'Ok lar'],
        [
          ['spam', 'Win'],
          ['ham', 'Later'],
        ],
      ),
      '"ham" in column 1 recurs in that column below it',
    )
    t.equal(headerlessReason(['12.5', 'x'], []), '"12.5" in column 1 is a number')
    t.match(headerlessReason(['a'.repeat(40) + ' ' + 'b'.repeat(30)], []), /^column 1 holds 71 characters of text$/)
    t.match(headerlessReason(['x'.repeat(40)], [['x'.repeat(40)]]), /"x{30}…" in column 1 recurs/)
  },
)

t.test('suggested names: label for a column of few values, text for the first other, then by position', async (t) => {
  t.same(
    suggestedColumns(
      ['ham', 'Ok lar'],
      [
        ['spam', 'Win'],
        ['ham', 'Later'],
        ['ham', 'Soon'],
      ],
    ),
    ['label', 'text'],
  )
  t.same(
    suggestedColumns(
      ['a', 'b', 'c'],
      [
        ['x', 'y', 'z'],
        ['w', 'v', 'u'],
        ['t', 's', 'r'],
      ],
    ),
    ['text', 'column2', 'column3'],
  )
  t.same(suggestedColumns(['a', 'b'], []), ['label', 'column2'])
})
