import t from 'tap'
import { costText, mix, table, usd } from '../../src/cli/text.ts'

t.test('tables align columns under their header', async (t) => {
  t.equal(
    table(
      ['a', 'bb'],
      [
        ['xxx', 'y'],
        ['z', ''],
      ],
    ),
    'a    bb\nxxx  y\nz\n',
  )
})

t.test('numbers read as a person expects', async (t) => {
  t.equal(mix({ no: 0.25, yes: 0.75 }), 'yes 75.0%  no 25.0%')
  t.equal(usd(0.0126), '$0.0126')
})

t.test('a cost reads as spent, or for a simulated model as what System One would have charged', async (t) => {
  t.equal(costText(0.0176, 'jev-1.13.0'), 'cost $0.0176')
  t.equal(costText(0.0176, 'simulated-1'), 'would cost $0.0176 on System One (simulated: nothing spent)')
})
