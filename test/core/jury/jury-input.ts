import t from 'tap'
import { checkInput, checkSaid, keyOf, patternsOf } from '../../../src/core/jury/jury-input.ts'

t.test('rows with the same jurors’ labels are one pattern, counted, in the order first met', async (t) => {
  t.same(
    patternsOf([
      [0, 1],
      [1, 1],
      [0, 1],
      [null, 1],
    ]),
    [
      { said: [0, 1], count: 2 },
      { said: [1, 1], count: 1 },
      { said: [null, 1], count: 1 },
    ],
  )
  t.same(patternsOf([]), [])
})

t.test('a pattern’s key shows an absent juror as -', async (t) => {
  t.equal(keyOf([0, null, 2]), '[0,-,2]')
})

t.test('a row names one label index or null per juror, and says where it is wrong', async (t) => {
  t.doesNotThrow(() => checkSaid([0, null], 2, 2, 'row'))
  t.throws(() => checkSaid([0], 2, 2, 'row 3'), /row 3 gives 1 jurors' labels, not 2/)
  t.throws(() => checkSaid([0, 2], 2, 2, 'row 3'), /row 3: juror 1 says 2, not a label index from 0 to 1/)
  t.throws(() => checkSaid([0.5, 1], 2, 2, 'row'), /juror 0 says 0.5/)
})

t.test('the input is checked whole: labels, jurors, counts and reviewed rows', async (t) => {
  const ok = {
    labels: ['a', 'b'],
    jurors: 2,
    patterns: [{ said: [0, 1], count: 3 }],
    anchors: [{ said: [0, 1], truth: 1 }],
  }
  t.doesNotThrow(() => checkInput(ok))
  t.throws(() => checkInput({ ...ok, labels: [] }), /at least one label/)
  t.throws(() => checkInput({ ...ok, labels: ['a', 'a'] }), /the labels repeat: a, a/)
  t.throws(() => checkInput({ ...ok, jurors: 0 }), /jurors must be a whole number of at least 1, not 0/)
  t.throws(() => checkInput({ ...ok, patterns: [{ said: [0, 1], count: -1 }] }), /pattern 0 counts -1 rows/)
  t.throws(() => checkInput({ ...ok, patterns: [{ said: [0], count: 1 }] }), /pattern 0 gives 1 jurors' labels/)
  t.throws(() => checkInput({ ...ok, anchors: [{ said: [0, 1], truth: 2 }] }), /reviewed row 0 has truth 2/)
  t.throws(() => checkInput({ ...ok, anchors: [{ said: [0, 9], truth: 0 }] }), /reviewed row 0: juror 1 says 9/)
})
