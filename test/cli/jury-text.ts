import t from 'tap'
import type { JuryQuestion } from '../../src/app/juror-accuracy.ts'
import { jurorCost, juryLines, versusText } from '../../src/cli/jury-text.ts'

const none = { rows: 0, correct: 0, accuracy: null, interval: null } as const

t.test(
  "a juror against the jury in a cell: the difference, its interval and McNemar's p; '-' without rows",
  async (t) => {
    t.equal(
      versusText({ difference: -0.3, interval: [-0.567, 0.053], p_value: 0.25 }),
      '-30.0 (95% -56.7 to +5.3), p = 0.250',
    )
    t.equal(versusText(null), '-')
  },
)

t.test('a cost in a cell: in dollars, and said to be simulated for a simulated model', async (t) => {
  t.equal(jurorCost(0.03, ['oa-b']), '$0.03')
  t.equal(jurorCost(0.03, ['simulated-a']), '$0.03 (simulated: nothing spent)')
  t.equal(jurorCost(0.03, ['simulated-a', 'oa-b']), '$0.03', 'not every juror simulated')
  t.equal(jurorCost(0.03, []), '$0.03')
})

t.test('the jury table: nothing for one model, one line without compared rows', async (t) => {
  t.same(juryLines({}), [])
  const empty: JuryQuestion = {
    jury: { model: 'jury:a+b', ...none, cost_usd: 0 },
    jurors: [{ model: 'a', engine: null, ...none, versus_jury: null, cost_usd: 0 }],
  }
  t.same(juryLines(empty), ['    jurors: no reviewed row that the jury and every juror answered yet'])
})

t.test('the jury table: the jury first, then each juror with its engine, its difference and its cost', async (t) => {
  const q: JuryQuestion = {
    jury: { model: 'jury:a+b', rows: 4, correct: 3, accuracy: 0.75, interval: [0.3, 0.95], cost_usd: 0.5 },
    jurors: [
      {
        model: 'a',
        engine: null,
        rows: 4,
        correct: 4,
        accuracy: 1,
        interval: [0.51, 1],
        versus_jury: { difference: 0.25, interval: [-0.2, 0.6], p_value: 1 },
        cost_usd: 0.1,
      },
      {
        model: 'b',
        engine: 'anthropic',
        rows: 4,
        correct: 2,
        accuracy: 0.5,
        interval: [0.15, 0.85],
        versus_jury: { difference: -0.25, interval: [-0.6, 0.2], p_value: 1 },
        cost_usd: 0.4,
      },
    ],
  }
  const lines = juryLines(q)
  t.equal(lines[0], '    what each juror buys, on the 4 reviewed rows the jury and every juror answered:')
  t.match(lines[1], /^ {6}model\s+engine\s+accuracy \(95%\)\s+juror - jury, points\s+cost \(estimated\)$/)
  t.match(lines[2], /^ {6}jury:a\+b\s+75\.0% \(30\.0% to 95\.0%\)\s+\$0\.50?$/)
  t.match(
    lines[3],
    /^ {6}a\s+ENGINE\s+100\.0% \(51\.0% to 100\.0%\)\s+\+25\.0 \(95% -20\.0 to \+60\.0\), p = 1\.000\s+\$0\.10?$/,
  )
  t.match(lines[4], /^ {6}b\s+anthropic\s+50\.0% /)
  t.equal(lines.length, 7)
})
